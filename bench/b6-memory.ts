import { HistoryIndex } from '../src/main/history/index/history-index.ts';

/**
 * B6 child process: RSS before opening the index vs after a browse/search session (pages and searches
 * over every record). Run in its own process so earlier benchmarks do not pollute the figure.
 * Prints one JSON line.
 */
const dbPath = process.argv[2];
if (!dbPath) throw new Error('usage: b6-memory.ts <index.db>');
const queries = ['公园里', '会议纪要', 'meeting', 'GitHub', '项目进度', '萍萍', '会议', 'PR', '吃了面条', 'please review'];
globalThis.gc?.();
const before = process.memoryUsage().rss;
const index = HistoryIndex.open(dbPath);
let pages = 0;
for (const includeArchived of [false, true]) {
  let cursor: string | undefined;
  for (let i = 0; i < 300; i++) {
    const p = index.query({ includeArchived, cursor });
    pages++;
    if (!p.nextCursor) break;
    cursor = p.nextCursor;
  }
}
for (const text of queries) {
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) {
    const p = index.query({ text, includeArchived: true, cursor });
    pages++;
    if (!p.nextCursor) break;
    cursor = p.nextCursor;
  }
}
globalThis.gc?.();
const after = process.memoryUsage().rss;
index.close();
console.log(JSON.stringify({ before, after, pages }));
