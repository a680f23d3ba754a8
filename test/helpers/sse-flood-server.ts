/**
 * An OpenAI-compatible chat endpoint in its own process that streams a huge answer as fast as the
 * socket takes it (or at a set pace), for measuring the client's event loop: a server in the test's own
 * process would spend the same loop producing the bytes. Run with Node (type stripping); prints
 * `port <n>` when listening. Settings come from the environment:
 *   FLOOD_CHARS       answer characters in total (default 20 MB)
 *   FLOOD_PIECE       characters per SSE event (default 64)
 *   FLOOD_BATCH       events per socket write (default 256)
 *   FLOOD_PAUSE_MS    pause between writes (default 0: only backpressure)
 *   FLOOD_THINK       characters of `<think>` reasoning before the answer (default 0)
 */
import http from 'node:http';

const total = Number(process.env.FLOOD_CHARS ?? 20 * 1024 * 1024);
const piece = Number(process.env.FLOOD_PIECE ?? 64);
const batch = Number(process.env.FLOOD_BATCH ?? 256);
const pauseMs = Number(process.env.FLOOD_PAUSE_MS ?? 0);
const think = Number(process.env.FLOOD_THINK ?? 0);

const event = (content: string, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'flood', object: 'chat.completion.chunk', created: 0, model: 'flood', choices: [{ index: 0, delta: content === '' ? {} : { content }, finish_reason: finish }] })}\n\n`;

/** The stream's text: optional reasoning in think tags, then the answer, in pieces. */
function* pieces(): Generator<string> {
  if (think > 0) {
    yield '<think>';
    for (let sent = 0; sent < think; sent += piece) yield 'r'.repeat(Math.min(piece, think - sent));
    yield '</think>';
  }
  const word = 'abcdefghij'.repeat(Math.ceil(piece / 10)).slice(0, piece);
  for (let sent = 0; sent < total; sent += piece) yield total - sent >= piece ? word : word.slice(0, total - sent);
}

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const it = pieces();
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    const pump = (): void => {
      while (!closed) {
        let out = '';
        let done = false;
        for (let i = 0; i < batch; i++) {
          const n = it.next();
          if (n.done) {
            done = true;
            break;
          }
          out += event(n.value);
        }
        if (done) {
          res.end(`${out}${event('', 'stop')}data: [DONE]\n\n`);
          return;
        }
        const more = res.write(out);
        if (pauseMs > 0) {
          setTimeout(pump, pauseMs);
          return;
        }
        if (!more) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
});
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`port ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
