/**
 * Where the preview panel appears: next to the mouse cursor, on the display the cursor is on, and
 * always fully inside that display's work area (no part under the taskbar/menu bar or off-screen).
 * Pure geometry over Electron's DIP coordinates (screen.getCursorScreenPoint + display.workArea), so
 * multi-monitor layouts (negative origins), edges and scaled displays are unit-tested without Electron.
 */

/** A rectangle in DIPs (Electron's screen coordinates). */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A point in DIPs. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** Gap between the cursor and the panel, so the panel does not sit under the pointer. */
export const CURSOR_GAP = 16;

/** A display as placement needs it: its whole area (to find the cursor's display) and its work area (to fit in). */
export interface DisplayArea {
  readonly bounds: Rect;
  readonly workArea: Rect;
}

/** The work area of the display whose bounds hold `p`; the nearest one when `p` is in a gap between displays. */
export function workAreaAt(p: Point, displays: readonly DisplayArea[]): Rect {
  let best: Rect | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const { bounds: a, workArea } of displays) {
    const dx = p.x < a.x ? a.x - p.x : p.x >= a.x + a.width ? p.x - (a.x + a.width - 1) : 0;
    const dy = p.y < a.y ? a.y - p.y : p.y >= a.y + a.height ? p.y - (a.y + a.height - 1) : 0;
    const d = dx * dx + dy * dy;
    if (d < bestDistance) {
      best = workArea;
      bestDistance = d;
    }
  }
  if (best === undefined) throw new Error('no display to place the panel on');
  return best;
}

/**
 * The panel's bounds for a cursor at `cursor`: below and to the right of it; flipped above / to the
 * left when that would leave the work area; clamped inside it; shrunk when the panel is larger than
 * the work area (a small or heavily scaled display). Integer DIPs, as BrowserWindow.setBounds wants.
 */
export function panelBounds(cursor: Point, displays: readonly DisplayArea[], size: { readonly width: number; readonly height: number }): Rect {
  const area = workAreaAt(cursor, displays);
  // Scaled displays can have fractional work areas: keep to the whole DIPs inside it.
  const left = Math.ceil(area.x);
  const top = Math.ceil(area.y);
  const right = Math.floor(area.x + area.width);
  const bottom = Math.floor(area.y + area.height);
  const width = Math.max(1, Math.min(Math.round(size.width), right - left));
  const height = Math.max(1, Math.min(Math.round(size.height), bottom - top));
  let x = Math.round(cursor.x) + CURSOR_GAP;
  if (x + width > right) x = Math.round(cursor.x) - CURSOR_GAP - width;
  let y = Math.round(cursor.y) + CURSOR_GAP;
  if (y + height > bottom) y = Math.round(cursor.y) - CURSOR_GAP - height;
  x = Math.min(Math.max(x, left), right - width);
  y = Math.min(Math.max(y, top), bottom - height);
  return { x, y, width, height };
}
