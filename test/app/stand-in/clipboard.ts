/**
 * `clipboard` and `ClipboardItem` on the real X clipboard (xclip on the Xvfb display): what the app
 * writes, another X client (the test's target text field) pastes, and what the user copied before is
 * what the app reads back. Text (`text/plain`) is carried; the transient markers Tingxie adds for
 * clipboard managers (`electron application/osclipboard;format=…`) are recorded but cannot be offered
 * next to the text by xclip — any other type fails loudly.
 */
import { xclipClipboard } from '../../../src/main/platform/clipboard-xclip.ts';
import { strict, ElectronStandInError } from './strict.ts';

const x = xclipClipboard();
const OS_FORMAT = /^electron application\/osclipboard;format="(.+)"$/;

/** Marker formats the app asked for, in order (tests read them). */
export const clipboardMarkers: string[] = [];

type ItemValue = string | Blob | Promise<string | Blob>;

/** Electron's ClipboardItem: a record of MIME type → data. */
export class ClipboardItem {
  private readonly data: Readonly<Record<string, ItemValue>>;
  readonly types: readonly string[];
  constructor(items: Record<string, ItemValue>) {
    this.data = { ...items };
    this.types = Object.keys(items);
  }
  async getType(type: string): Promise<Blob> {
    const v = await this.data[type];
    if (v === undefined) throw new Error(`The type '${type}' was not found`);
    return typeof v === 'string' ? new Blob([v], { type }) : v;
  }
}

/** The clipboard module. */
export const clipboard = strict('clipboard', {
  readText: (): Promise<string> => x.readText(),
  writeText: (text: string): Promise<void> => x.writeText(text),
  clear: (): void => {
    void x.writeText('');
  },
  async read(): Promise<ClipboardItem[]> {
    const text = await x.readText();
    return text === '' ? [] : [new ClipboardItem({ 'text/plain': new Blob([text], { type: 'text/plain' }) })];
  },
  async write(items: readonly ClipboardItem[]): Promise<void> {
    let text: string | null = null;
    for (const item of items) {
      for (const type of item.types) {
        const marker = OS_FORMAT.exec(type);
        if (marker) clipboardMarkers.push(marker[1] ?? '');
        else if (type === 'text/plain') text = await (await item.getType(type)).text();
        else throw new ElectronStandInError(`clipboard.write of type ${type}`);
      }
    }
    await x.writeText(text ?? '');
  },
});
