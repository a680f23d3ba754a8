import { describe, expect, it } from 'vitest';
import { boolAt, choiceAt, numberAt, stringAt, valueAt } from '../../../src/renderer/lib/config-view.ts';

const config = {
  output: { preview: false, method: 'copy' },
  ai_enhance: { conversation_history: { max_entries: 12 }, mode: 'proofread' },
  ui: { language: 'klingon' },
  list: [1, 2],
};

describe('config view', () => {
  it('reads values by dotted key path', () => {
    expect(valueAt(config, 'ai_enhance.conversation_history.max_entries')).toBe(12);
    expect(valueAt(config, 'output')).toEqual({ preview: false, method: 'copy' });
    expect(valueAt(config, 'output.missing.deeper')).toBeUndefined();
    expect(valueAt(config, 'list.0')).toBeUndefined();
    expect(valueAt(null, 'output.preview')).toBeUndefined();
  });

  it('does not read inherited properties', () => {
    expect(valueAt(config, 'output.constructor')).toBeUndefined();
    expect(valueAt(config, '__proto__')).toBeUndefined();
  });

  it('falls back when the type is wrong or the value is missing', () => {
    expect(boolAt(config, 'output.preview', true)).toBe(false);
    expect(boolAt(config, 'output.method', true)).toBe(true);
    expect(numberAt(config, 'ai_enhance.conversation_history.max_entries', 10)).toBe(12);
    expect(numberAt(config, 'output.method', 10)).toBe(10);
    expect(stringAt(config, 'ai_enhance.mode', 'x')).toBe('proofread');
    expect(stringAt(config, 'nope', 'x')).toBe('x');
    expect(choiceAt(config, 'output.method', ['paste', 'copy'], 'paste')).toBe('copy');
    expect(choiceAt(config, 'ui.language', ['system', 'zh', 'en'], 'system')).toBe('system');
  });
});
