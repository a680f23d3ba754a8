import { MODEL_CATALOG } from '../../main/asr/model-catalog.ts';
import { ModelDownloadError, ModelManager } from '../../main/asr/model-manager.ts';
import { ConfigStore } from '../../main/settings/config-store.ts';
import { EXIT_ERROR, EXIT_OK, UsageError, type CliCommand, type CliContext, type CliGroup } from '../types.ts';

/* `tingxie models list|download|delete`: the whisper models under <dataDir>/models. */

async function openManager(ctx: CliContext, mirror?: string): Promise<ModelManager> {
  const store = await ConfigStore.open({ dataDir: ctx.dataDir, readOnly: true });
  return new ModelManager({ dataDir: ctx.dataDir, mirror: mirror ?? store.get().asr.local.models_mirror });
}

function oneName(argv: readonly string[]): string {
  if (argv.length === 0) throw new UsageError('missing NAME (see: tingxie models list)');
  if (argv.length > 1) throw new UsageError(`unexpected argument '${argv[1]}'`);
  return argv[0] as string;
}

const mb = (n: number): string => `${(n / 1e6).toFixed(0)} MB`;

const list: CliCommand = {
  name: 'list',
  args: '',
  summary: 'list downloadable and installed whisper models',
  async run(ctx, argv) {
    if (argv.length > 0) throw new UsageError(`unexpected argument '${argv[0]}'`);
    const m = await openManager(ctx);
    const rows = m.list();
    if (ctx.json) {
      ctx.stdout.write(`${JSON.stringify(rows.map((r) => ({ name: r.name, installed: r.installed, path: r.path, bytes: r.bytes ?? r.catalog?.approxBytes ?? null, partialBytes: r.partialBytes, sha1: r.catalog?.sha1 ?? null })), null, 2)}\n`);
      return EXIT_OK;
    }
    const width = Math.max(...rows.map((r) => r.name.length));
    for (const r of rows) {
      const size = r.bytes ?? r.catalog?.approxBytes;
      const state = r.installed ? 'installed' : r.partialBytes > 0 ? `partial (${mb(r.partialBytes)}, resumable)` : '';
      ctx.stdout.write(`${r.name.padEnd(width)}  ${(size === undefined ? '?' : mb(size)).padStart(7)}  ${state}\n`);
    }
    ctx.stdout.write(`\nfolder: ${m.dir}\n`);
    return EXIT_OK;
  },
};

const download: CliCommand = {
  name: 'download',
  args: 'NAME',
  summary: 'download, verify (SHA-1) and install a model; an interrupted download resumes',
  options: { mirror: { type: 'string', description: 'URL  download from this base instead of asr.local.models_mirror' } },
  details: `Models: ${MODEL_CATALOG.map((e) => e.name).join(', ')}`,
  async run(ctx, argv, options) {
    const name = oneName(argv);
    const m = await openManager(ctx, typeof options.mirror === 'string' ? options.mirror : undefined);
    let lastPct = -1;
    try {
      const file = await m.download(name, {
        onProgress: (p) => {
          if (p.total === undefined) return;
          const pct = Math.floor((p.received / p.total) * 100);
          if (pct >= lastPct + 5 || pct === 100) {
            lastPct = pct;
            ctx.stderr.write(`${name}: ${pct}% (${mb(p.received)} of ${mb(p.total)})${p.resumedFrom > 0 ? ` resumed from ${mb(p.resumedFrom)}` : ''}\n`);
          }
        },
      });
      if (ctx.json) ctx.stdout.write(`${JSON.stringify({ name, path: file })}\n`);
      else ctx.stdout.write(`installed ${name}: ${file}\n`);
      return EXIT_OK;
    } catch (err) {
      if (err instanceof ModelDownloadError) {
        ctx.stderr.write(`error (${err.code}): ${err.message}\n`);
        return EXIT_ERROR;
      }
      throw err;
    }
  },
};

const del: CliCommand = {
  name: 'delete',
  args: 'NAME',
  summary: 'delete an installed model (and any partial download)',
  async run(ctx, argv) {
    const name = oneName(argv);
    const m = await openManager(ctx);
    const removed = m.delete(name);
    ctx.stdout.write(removed ? `deleted ${name}\n` : `${name} is not installed\n`);
    return removed ? EXIT_OK : EXIT_ERROR;
  },
};

/** `tingxie models …` */
export const modelsGroup: CliGroup = {
  name: 'models',
  summary: 'manage local whisper models',
  commands: [list, download, del],
};
