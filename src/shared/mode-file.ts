/**
 * Rewrites a mode file (front matter + Markdown prompt, see main/enhance/modes.ts) from the fields the
 * Settings form edits, keeping everything else as the user wrote it: unknown front-matter keys, comments,
 * key order, the steps' list style. Pure (the renderer builds the text, main validates it before saving),
 * so a file edited through the form stays a file a person can still edit by hand.
 */

/** The fields the mode form edits. */
export interface ModeFormFields {
  readonly label: string;
  readonly order: number;
  /** Chain steps (mode ids), or null for a single-step mode. */
  readonly steps: readonly string[] | null;
  /** The system prompt (a chain's description). */
  readonly prompt: string;
}

interface SplitFile {
  /** Front-matter lines between the --- lines, or null when the file has none. */
  readonly header: string[] | null;
  readonly body: string;
}

function split(text: string): SplitFile {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!normalized.startsWith('---\n')) return { header: null, body: normalized };
  const end = normalized.indexOf('\n---', 4);
  if (end === -1) return { header: null, body: normalized };
  return { header: normalized.slice(4, end).split('\n'), body: normalized.slice(end + 4).replace(/^\n/, '') };
}

/** The prompt of a mode file (the text after the front matter), trimmed as the parser reads it. */
export function modeFilePrompt(text: string): string {
  return split(text).body.trim();
}

/** A label as one front-matter value: one line; quoted when the parser would strip its own quotes. */
function labelValue(label: string): string {
  const one = label.replace(/\s+/g, ' ').trim();
  return /^["']|["']$/.test(one) ? `"${one}"` : one;
}

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$/;
const LIST_ITEM = /^\s+-\s*/;

/**
 * Replaces `key` in the header (its list items too) with `value` rendered in the style it had; appends
 * it when absent; removes it when value is null.
 */
function setKey(header: string[], key: string, value: string | readonly string[] | null): string[] {
  const out: string[] = [];
  let found = false;
  for (let i = 0; i < header.length; i += 1) {
    const line = header[i] ?? '';
    const kv = KEY_LINE.exec(line);
    if (kv?.[1] !== key) {
      out.push(line);
      continue;
    }
    found = true;
    // A YAML block list (`steps:` then `  - a` lines) is rewritten as a block list.
    let j = i + 1;
    while (j < header.length && LIST_ITEM.test(header[j] ?? '')) j += 1;
    const block = (kv[2] ?? '').trim() === '' && j > i + 1;
    i = j - 1;
    if (value === null) continue;
    if (typeof value === 'string') out.push(`${key}: ${value}`);
    else if (block) out.push(`${key}:`, ...value.map((s) => `  - ${s}`));
    else out.push(`${key}: [${value.join(', ')}]`);
  }
  if (!found && value !== null) out.push(typeof value === 'string' ? `${key}: ${value}` : `${key}: [${value.join(', ')}]`);
  return out;
}

/** `text` with the form's fields written in; every other line of the front matter is kept. */
export function writeModeFile(text: string, fields: ModeFormFields): string {
  const { header } = split(text);
  let h = header ?? [];
  h = setKey(h, 'label', labelValue(fields.label));
  h = setKey(h, 'order', String(fields.order));
  h = setKey(h, 'steps', fields.steps === null || fields.steps.length === 0 ? null : fields.steps);
  const prompt = fields.prompt.replace(/\r\n?/g, '\n').trim();
  return `---\n${h.join('\n')}\n---\n${prompt}\n`;
}
