/**
 * The clipboard through Electron's (W3C-style, Electron ≥ 44) clipboard API: snapshots keep every
 * format the OS offers, and the text Tingxie writes to paste carries the platform's "transient" markers
 * (see transientMarkers) in the same atomic write, as raw OS formats via
 * `electron application/osclipboard;format="…"`.
 */
import { clipboard, ClipboardItem } from 'electron';
import type { ClipboardPort } from './paste.ts';
import { transientMarkers } from './paste-plan.ts';

const osFormat = (name: string): string => `electron application/osclipboard;format="${name}"`;

/** Everything that was on the clipboard: each item's types with their payloads. */
type Snapshot = readonly Readonly<Record<string, Blob | string>>[];

/** Electron's clipboard as a ClipboardPort. */
export function electronClipboard(platform: NodeJS.Platform = process.platform): ClipboardPort {
  const markers = transientMarkers(platform);
  return {
    readText: () => clipboard.readText(),
    async snapshot(): Promise<Snapshot> {
      const items = await clipboard.read();
      const out: Record<string, Blob | string>[] = [];
      for (const item of items) {
        const entry: Record<string, Blob | string> = {};
        for (const type of item.types) {
          if (type === 'electron application/bookmark') continue;
          try {
            const v = await item.getType(type);
            if (v instanceof Blob) entry[type] = v;
          } catch {
            // A format that cannot be read back is skipped; the text formats are what matter.
          }
        }
        if (Object.keys(entry).length > 0) out.push(entry);
      }
      return out;
    },
    async restore(s) {
      const snap = s as Snapshot;
      if (snap.length === 0) {
        clipboard.clear();
        return;
      }
      await clipboard.write(snap.map((entry) => new ClipboardItem({ ...entry })));
    },
    async writeTransient(text) {
      const item: Record<string, string | Blob> = { 'text/plain': text };
      for (const m of markers) item[osFormat(m.format)] = new Blob([new Uint8Array(m.data)]);
      try {
        await clipboard.write([new ClipboardItem(item)]);
      } catch {
        // A platform that refuses a raw format still gets the text: pasting matters more than the marker.
        await clipboard.writeText(text);
      }
    },
    writeText: (text) => clipboard.writeText(text),
  };
}
