import { describe, expect, it } from 'vitest';
import { CURSOR_GAP, panelBounds, workAreaAt, type DisplayArea, type Rect } from '../../../../src/main/app/panel-placement.ts';

const size = { width: 520, height: 260 };
/** A primary 1920×1080 display (menu bar taken off the work area) and a second one to its left, higher up. */
const primary: DisplayArea = { bounds: { x: 0, y: 0, width: 1920, height: 1080 }, workArea: { x: 0, y: 25, width: 1920, height: 1015 } };
const left: DisplayArea = { bounds: { x: -1440, y: -200, width: 1440, height: 900 }, workArea: { x: -1440, y: -200, width: 1440, height: 860 } };
const displays = [primary, left];

const inside = (b: Rect, a: Rect): boolean => b.x >= a.x && b.y >= a.y && b.x + b.width <= a.x + a.width && b.y + b.height <= a.y + a.height;

describe('panel placement near the cursor', () => {
  it('opens below-right of the cursor when there is room', () => {
    expect(panelBounds({ x: 400, y: 300 }, displays, size)).toEqual({ x: 400 + CURSOR_GAP, y: 300 + CURSOR_GAP, ...size });
  });

  it('flips to the left / above at the right and bottom edges, staying fully visible', () => {
    const b = panelBounds({ x: 1900, y: 1030 }, displays, size);
    expect(b).toEqual({ x: 1900 - CURSOR_GAP - 520, y: 1030 - CURSOR_GAP - 260, ...size });
    expect(inside(b, primary.workArea)).toBe(true);
  });

  it('a cursor on the menu bar keeps the panel below it, inside the work area', () => {
    const b = panelBounds({ x: 0, y: 0 }, displays, size);
    expect(b).toEqual({ x: CURSOR_GAP, y: 25, ...size });
    expect(inside(b, primary.workArea)).toBe(true);
  });

  it('uses the display the cursor is on, with negative coordinates on a monitor left of the primary', () => {
    const b = panelBounds({ x: -100, y: 600 }, displays, size);
    expect(inside(b, left.workArea)).toBe(true);
    expect(b.x + b.width).toBeLessThanOrEqual(0); // never spills onto the primary display
    expect(b).toEqual({ x: -100 - CURSOR_GAP - 520, y: 600 - CURSOR_GAP - 260, ...size });
  });

  it('a cursor in a gap between displays of different heights goes to the nearest display', () => {
    // Below the left monitor (its bounds end at y 700), just left of the primary's edge: the left one is nearer.
    expect(workAreaAt({ x: -50, y: 710 }, displays)).toBe(left.workArea);
    expect(inside(panelBounds({ x: -50, y: 710 }, displays, size), left.workArea)).toBe(true);
    expect(workAreaAt({ x: -5, y: 800 }, displays)).toBe(primary.workArea);
  });

  it('scaled displays: fractional work areas give whole DIPs inside them; a too-small display shrinks the panel', () => {
    // 2560×1440 at 175 % is 1462.86×822.86 DIPs, right of the primary.
    const scaled: DisplayArea = { bounds: { x: 1920, y: 0, width: 1462.857, height: 822.857 }, workArea: { x: 1920, y: 0, width: 1462.857, height: 794.857 } };
    const b = panelBounds({ x: 3380.4, y: 790.6 }, [primary, scaled], size);
    for (const v of Object.values(b)) expect(Number.isInteger(v)).toBe(true);
    expect(inside(b, scaled.workArea)).toBe(true);
    const tiny: DisplayArea = { bounds: { x: 0, y: 0, width: 400, height: 200 }, workArea: { x: 0, y: 0, width: 400, height: 200 } };
    expect(panelBounds({ x: 200, y: 100 }, [tiny], size)).toEqual({ x: 0, y: 0, width: 400, height: 200 });
  });

  it('refuses to guess without any display', () => {
    expect(() => panelBounds({ x: 0, y: 0 }, [], size)).toThrow(/no display/);
  });
});
