import type { UnreadHistory } from './notice.ts';

/**
 * The words of the `history-unreadable` notice: each piece of history that could not be read, named
 * with what is wrong with it in plain words of the UI language. Paths, OS errors and byte counts stay as
 * they are. At most {@link NAMED_PROBLEMS} pieces are named (the log has all of them).
 */

/** Pieces named in one notice; the rest are counted. */
export const NAMED_PROBLEMS = 5;
/** Line numbers named per file; the rest are counted. */
const NAMED_LINES = 10;

/** "line 3" / "lines 2, 3 and 12 more". Pure. */
function enLines(lines: readonly number[]): string {
  const named = lines.slice(0, NAMED_LINES).join(', ');
  const more = lines.length > NAMED_LINES ? ` and ${lines.length - NAMED_LINES} more` : '';
  return `${lines.length === 1 ? 'line' : 'lines'} ${named}${more}`;
}

/** "第 3 行" / "第 2、3 行等 14 行". Pure. */
function zhLines(lines: readonly number[]): string {
  const named = lines.slice(0, NAMED_LINES).join('、');
  return lines.length > NAMED_LINES ? `第 ${named} 行等 ${lines.length} 行` : `第 ${named} 行`;
}

/** One piece in English. Pure. */
function enProblem(p: UnreadHistory): string {
  switch (p.kind) {
    case 'unreadable':
      return `${p.path} could not be read (${p.reason})`;
    case 'oversized':
      return `${p.path} ${enLines([p.line])} is too long to read (${p.bytes} bytes) and was set aside in conversation_history.corrupt.jsonl`;
    case 'invalid-utf8':
      return `${p.path} ${enLines(p.lines)}: not valid UTF-8 text; left unchanged in the file (edits and deletes of its records wait until it is fixed)`;
    case 'skipped':
      return p.cause === 'symbolic-link'
        ? `${p.path} is a symbolic link and is not read; put the file itself there`
        : `${p.path} is not read: its name is not an archive’s (YYYY-MM.jsonl); rename it to the month of its records`;
    default: {
      const never: never = p;
      return String(never);
    }
  }
}

/** One piece in Chinese. Pure. */
function zhProblem(p: UnreadHistory): string {
  switch (p.kind) {
    case 'unreadable':
      return `${p.path} 无法读取（${p.reason}）`;
    case 'oversized':
      return `${p.path} ${zhLines([p.line])}过长（${p.bytes} 字节），无法读取，已移到 conversation_history.corrupt.jsonl`;
    case 'invalid-utf8':
      return `${p.path} ${zhLines(p.lines)}不是有效的 UTF-8 文本，已原样留在文件中（修好之前，该文件中的记录无法编辑或删除）`;
    case 'skipped':
      return p.cause === 'symbolic-link'
        ? `${p.path} 是符号链接，未读取；请把文件本身放在那里`
        : `${p.path} 未读取：文件名不是归档名（YYYY-MM.jsonl）；请按其中记录的月份重命名`;
    default: {
      const never: never = p;
      return String(never);
    }
  }
}

/** The pieces in English, joined; the ones past {@link NAMED_PROBLEMS} counted. Pure. */
export function enUnreadHistory(problems: readonly UnreadHistory[]): string {
  const named = problems.slice(0, NAMED_PROBLEMS).map(enProblem).join('; ');
  return problems.length > NAMED_PROBLEMS ? `${named}; and ${problems.length - NAMED_PROBLEMS} more` : named;
}

/** The pieces in Chinese, joined; the ones past {@link NAMED_PROBLEMS} counted. Pure. */
export function zhUnreadHistory(problems: readonly UnreadHistory[]): string {
  const named = problems.slice(0, NAMED_PROBLEMS).map(zhProblem).join('；');
  return problems.length > NAMED_PROBLEMS ? `${named}；另有 ${problems.length - NAMED_PROBLEMS} 处` : named;
}
