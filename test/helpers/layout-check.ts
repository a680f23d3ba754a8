/**
 * Layout checks a real browser can make and a person would notice: text clipped by its box (or cut off
 * by a clipping ancestor or the window edge, outside anything that scrolls), text spilling out of its
 * box, siblings drawn over each other, controls whose label wraps (per character above all), selects too
 * narrow for their value, and a page wider than its window. Run in the page; returns readable lines.
 *
 * Allowed on purpose: text cut with an ellipsis where the element has a `title` with the whole text;
 * anything inside a scrolling container (it is reachable by scrolling, and such containers are keyboard
 * focusable — axe checks that); visually hidden text (.sr-only).
 */
import type { Page } from 'playwright-core';

/** Runs every check on the page as it is now. */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const describe = (el: Element): string => {
      const id = el.id ? `#${el.id}` : '';
      const cls = typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      const testId = el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : '';
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      return `${el.tagName.toLowerCase()}${id}${cls}${testId} "${text}"`;
    };
    const hidden = (el: Element): boolean => {
      if (el.closest('.sr-only, [hidden], template, svg, option, datalist')) return true;
      const cs = getComputedStyle(el);
      if (cs.display === 'none' || cs.visibility === 'hidden' || cs.opacity === '0') return true;
      const r = el.getBoundingClientRect();
      return r.width === 0 && r.height === 0;
    };
    const ownText = (el: Element): string =>
      [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
    const scrolls = (v: string): boolean => v === 'auto' || v === 'scroll';
    const formField = (el: Element): boolean => el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;

    const all = [...document.body.querySelectorAll('*')].filter((el) => !hidden(el));
    for (const el of all) {
      const cs = getComputedStyle(el);
      const he = el as HTMLElement;
      // 1. Content clipped by the element's own box (not a form field: those scroll their text).
      if (!formField(el) && he.clientWidth > 0) {
        const overX = he.scrollWidth > he.clientWidth + 1;
        const overY = he.scrollHeight > he.clientHeight + 1;
        const ellipsis = cs.textOverflow === 'ellipsis';
        if (overX && (cs.overflowX === 'hidden' || cs.overflowX === 'clip')) {
          if (!ellipsis) problems.push(`clipped (too wide for its box): ${describe(el)}`);
          else if (!he.title) problems.push(`cut with an ellipsis but no title holds the whole text: ${describe(el)}`);
        }
        if (overY && (cs.overflowY === 'hidden' || cs.overflowY === 'clip') && !ellipsis) problems.push(`clipped (too tall for its box): ${describe(el)}`);
        // 2. Text spilling out of a box that does not clip (it would be drawn over whatever is next to it).
        if (overX && cs.overflowX === 'visible' && cs.display !== 'inline' && ownText(el) !== '') problems.push(`text overflows its box: ${describe(el)}`);
      }
      // 3. Cut off by a clipping ancestor or the window, with no scrolling container to reach it.
      if (ownText(el) !== '' || formField(el) || el instanceof HTMLButtonElement) {
        const r = el.getBoundingClientRect();
        let clipped: string | null = null;
        let excused = false;
        for (let a = el.parentElement; a !== null && a !== document.documentElement; a = a.parentElement) {
          const acs = getComputedStyle(a);
          if (scrolls(acs.overflowX) || scrolls(acs.overflowY)) break; // reachable by scrolling
          if (acs.overflowX === 'visible' && acs.overflowY === 'visible') continue;
          const ar = a.getBoundingClientRect();
          if (r.right > ar.right + 1 || r.left < ar.left - 1 || r.bottom > ar.bottom + 1 || r.top < ar.top - 1) {
            // Cut by a line that ends in an ellipsis and has the whole text as its tooltip: on purpose.
            if (acs.textOverflow === 'ellipsis' && (a as HTMLElement).title) excused = true;
            else clipped = describe(a);
            break;
          }
        }
        const inScroller = (() => {
          for (let a = el.parentElement; a !== null; a = a.parentElement) {
            const acs = getComputedStyle(a);
            if (scrolls(acs.overflowX) || scrolls(acs.overflowY)) return true;
          }
          return false;
        })();
        if (clipped !== null) problems.push(`cut off by ${clipped}: ${describe(el)}`);
        else if (!excused && !inScroller && (r.right > innerWidth + 1 || r.bottom > innerHeight + 1 || r.left < -1 || r.top < -1)) problems.push(`outside the window: ${describe(el)}`);
      }
      // 4. Siblings drawn over each other (in-flow children only; an inline one by its line fragments).
      const kids = [...el.children].filter((k) => !hidden(k) && !['absolute', 'fixed'].includes(getComputedStyle(k).position) && getComputedStyle(k).display !== 'contents');
      const boxes = kids.map((k) => (getComputedStyle(k).display === 'inline' ? [...k.getClientRects()] : [k.getBoundingClientRect()]));
      for (let i = 0; i < kids.length; i++) {
        for (let j = i + 1; j < kids.length; j++) {
          const hit = (boxes[i] ?? []).some((a) =>
            (boxes[j] ?? []).some((b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1.5),
          );
          if (hit) problems.push(`overlaps its sibling ${describe(kids[j] as Element)}: ${describe(kids[i] as Element)}`);
        }
      }
      // 5. Wrapping: a control's label never wraps; no text wraps one or two characters per line.
      const text = ownText(el);
      if (text.length >= 2 && !formField(el)) {
        // Lines of the element's own text (children such as a <kbd> sit on their own baseline and are
        // checked as elements themselves): rect tops further apart than half a line are different lines.
        const tops: number[] = [];
        const tolerance = parseFloat(cs.fontSize) * 0.6;
        for (const node of el.childNodes) {
          if (node.nodeType !== Node.TEXT_NODE || (node.textContent ?? '').trim() === '') continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const rect of range.getClientRects()) {
            if (rect.width > 0 && !tops.some((t) => Math.abs(t - rect.top) < tolerance)) tops.push(rect.top);
          }
        }
        const lines = tops.length;
        const control = el.closest('button, [role="tab"], [role="option"] .record-time, .pill, label, th, kbd, .mode-button');
        const chars = [...text.replace(/\s+/g, '')].length;
        if (lines > 1 && chars / lines < 3) problems.push(`wraps per character (${lines} lines for ${chars} characters): ${describe(el)}`);
        else if (lines > 1 && control !== null && (control.tagName === 'BUTTON' || control.getAttribute('role') === 'tab' || control.tagName === 'KBD')) problems.push(`control label wraps onto ${lines} lines: ${describe(el)}`);
      }
      // 6. A select narrower than the option it shows.
      if (el instanceof HTMLSelectElement && el.selectedOptions[0]) {
        const probe = document.createElement('span');
        probe.style.cssText = `position:absolute;visibility:hidden;white-space:nowrap;font:${cs.font}`;
        probe.textContent = el.selectedOptions[0].textContent ?? '';
        document.body.append(probe);
        const need = probe.getBoundingClientRect().width;
        probe.remove();
        // Padding, border and the arrow take about 28 px of a native select.
        if (need > el.clientWidth - 24) problems.push(`select too narrow for "${probe.textContent}" (${Math.round(need)} px in ${el.clientWidth}): ${describe(el)}`);
      }
    }
    // 7. The page itself never scrolls sideways.
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > innerWidth + 1) problems.push(`the page is wider than the window (${root.scrollWidth} > ${innerWidth})`);
    return [...new Set(problems)];
  });
}
