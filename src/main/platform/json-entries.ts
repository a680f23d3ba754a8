import fs from 'node:fs';
import path from 'node:path';

/*
 * A folder of `<id>.json` entries (the audio journal's and the session journal's state files): each
 * entry is read by its owner, which knows its shape and treats an unreadable file as absent.
 */

/** Ids are plain file-name stems: no separators, dots or empty names, so an id can never leave its folder. */
const ENTRY_ID_RE = /^[A-Za-z0-9_-]{1,100}$/;

/** The path of entry `id` with extension `ext` in `dir`; throws "bad <kind> id" for an id that is not a plain stem. */
export function entryPath(dir: string, id: string, ext: string, kind: string): string {
  if (!ENTRY_ID_RE.test(id)) throw new Error(`bad ${kind} id '${id}'`);
  return path.join(dir, `${id}.${ext}`);
}

/** Every readable entry in `dir`, oldest first by `createdAt`; none when the folder does not exist. */
export function listJsonEntries<T extends { readonly createdAt: string }>(dir: string, read: (id: string) => T | undefined): T[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.json'))
    .map((n) => read(n.slice(0, -5)))
    .filter((e): e is T => e !== undefined)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}
