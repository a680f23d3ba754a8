import { describe, expect, it } from 'vitest';
import { BUILTIN_MODES } from '../../../src/main/enhance/builtin-modes.ts';
import { parseModeText } from '../../../src/main/enhance/modes.ts';
import { modeFilePrompt, writeModeFile } from '../../../src/shared/mode-file.ts';

/** The mode form rewrites only its own fields: the file stays in its format, unknown keys and comments kept. */
describe('writeModeFile', () => {
  const custom = [
    '---',
    '# my own mode',
    'label: Meeting notes',
    'order: 30',
    'track_corrections: true',
    'guard: length',
    'x_color: teal',
    '---',
    'Turn the text into meeting notes.',
    '',
  ].join('\n');

  it('changes name, order and prompt in place; every other line stays', () => {
    const out = writeModeFile(custom, { label: '会议纪要', order: 5, steps: null, prompt: 'Make it bullet points.\n\nKeep names.' });
    expect(out).toBe(['---', '# my own mode', 'label: 会议纪要', 'order: 5', 'track_corrections: true', 'guard: length', 'x_color: teal', '---', 'Make it bullet points.', '', 'Keep names.', ''].join('\n'));
    const m = parseModeText('meeting', out);
    expect(m).toMatchObject({ label: '会议纪要', order: 5, trackCorrections: true, guard: 'length', prompt: 'Make it bullet points.\n\nKeep names.', steps: null });
    expect(modeFilePrompt(out)).toBe('Make it bullet points.\n\nKeep names.');
  });

  it('an unchanged form writes the same file back', () => {
    const m = parseModeText('meeting', custom);
    expect(writeModeFile(custom, { label: m.label, order: m.order, steps: m.steps, prompt: m.prompt })).toBe(custom);
  });

  it('round-trips every built-in mode in both languages', () => {
    for (const b of BUILTIN_MODES) {
      for (const text of Object.values(b.text)) {
        const file = `${text}\n`;
        const m = parseModeText(b.id, file);
        const out = writeModeFile(file, { label: m.label, order: m.order, steps: m.steps, prompt: m.prompt });
        expect(out).toBe(file);
        expect(parseModeText(b.id, out)).toEqual(m);
      }
    }
  });

  it('chain steps keep their style: inline list inline, block list as a block', () => {
    const inline = '---\nlabel: Chain\nsteps: [proofread, translate_en]\n---\nBoth.\n';
    expect(writeModeFile(inline, { label: 'Chain', order: 50, steps: ['translate_en', 'proofread', 'polish'], prompt: 'Both.' })).toBe(
      '---\nlabel: Chain\nsteps: [translate_en, proofread, polish]\norder: 50\n---\nBoth.\n',
    );
    const block = '---\nsteps:\n  - proofread\n  - translate_en\nlabel: Chain\nnote: keep me\n---\n';
    const out = writeModeFile(block, { label: 'Chain', order: 20, steps: ['proofread', 'polish'], prompt: '' });
    expect(out).toBe('---\nsteps:\n  - proofread\n  - polish\nlabel: Chain\nnote: keep me\norder: 20\n---\n\n');
    expect(parseModeText('c', out).steps).toEqual(['proofread', 'polish']);
  });

  it('a file without front matter gets one; labels that would lose their quotes are quoted', () => {
    const out = writeModeFile('Just a prompt.', { label: '"Quoted"', order: 50, steps: null, prompt: 'Just a prompt.' });
    expect(out).toBe('---\nlabel: ""Quoted""\norder: 50\n---\nJust a prompt.\n');
    expect(parseModeText('q', out).label).toBe('"Quoted"');
    expect(parseModeText('q', writeModeFile('x', { label: 'a\nb: c', order: 1, steps: null, prompt: 'p' })).label).toBe('a b: c');
  });
});
