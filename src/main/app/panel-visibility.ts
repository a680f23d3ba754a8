/** Shows the preview panel next to the cursor or hides it (the placement itself is panel-placement.ts). */
import { screen } from 'electron';
import type { BrowserWindow } from 'electron';
import { panelBounds } from './panel-placement.ts';

/** Shows the panel next to the cursor (on the cursor's display, fully visible) or hides it. */
export function panelVisibility(window: () => BrowserWindow | undefined): (show: boolean) => void {
  return (show) => {
    const w = window();
    if (w === undefined || w.isDestroyed()) return;
    if (!show) {
      w.hide();
      return;
    }
    if (!w.isVisible()) {
      const [width = 520, height = 260] = w.getSize();
      const displays = screen.getAllDisplays().map((d) => ({ bounds: d.bounds, workArea: d.workArea }));
      w.setBounds(panelBounds(screen.getCursorScreenPoint(), displays, { width, height }));
    }
    // macOS: the panel is a non-activating NSPanel (window-policy.ts), so show() gives it the keyboard
    // without activating Tingxie or touching the target app's selection; focus() would activate the app.
    // Elsewhere it takes focus, and the paste re-focuses the remembered target app first.
    w.show();
    if (process.platform !== 'darwin') w.focus();
  };
}
