import { describe, expect, it } from 'vitest';
import { liveTextBlocker, liveTextShown } from '../../../src/shared/live-text.ts';

describe('live text rule', () => {
  const on = { visual_indicator: true, live_text: true, engine: 'local', decode_while_speaking: true } as const;

  it('shows the text so far only when switched on, with the indicator, a local engine and decoding while speaking', () => {
    expect(liveTextShown(on)).toBe(true);
    expect(liveTextShown({ ...on, live_text: false })).toBe(false);
    expect(liveTextShown({ ...on, visual_indicator: false })).toBe(false);
    expect(liveTextShown({ ...on, engine: 'remote' })).toBe(false);
    expect(liveTextShown({ ...on, decode_while_speaking: false })).toBe(false);
  });

  it('names the first thing that stops it (the Settings hint), null when nothing does', () => {
    expect(liveTextBlocker(on)).toBeNull();
    expect(liveTextBlocker({ ...on, visual_indicator: false, engine: 'remote' })).toBe('indicator-off');
    expect(liveTextBlocker({ ...on, engine: 'remote', decode_while_speaking: false })).toBe('remote-engine');
    expect(liveTextBlocker({ ...on, decode_while_speaking: false })).toBe('decode-off');
  });
});
