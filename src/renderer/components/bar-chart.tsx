/** One series of a bar chart: values per category, drawn with a CSS class (colours live in app.css). */
export interface BarSeries {
  readonly name: string;
  readonly className: string;
  readonly values: readonly number[];
}

/** Props of a bar chart. */
export interface BarChartProps {
  /** Accessible name (the chart is one image to a screen reader; the numbers are in the tables). */
  readonly label: string;
  readonly categories: readonly string[];
  /** Series are stacked bottom-up in this order. */
  readonly series: readonly BarSeries[];
  /** Formats a value for tooltips and the axis. */
  readonly format?: (n: number) => string;
  readonly testId?: string;
}

const W = 640;
const H = 180;
const PAD = { left: 40, right: 8, top: 10, bottom: 22 };

/** A "nice" axis maximum (1, 2 or 5 × 10^k) at or above `max`. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}

/**
 * A stacked bar chart drawn as SVG elements with geometry attributes and CSS classes only (no style
 * attributes), so it renders under the strict CSP and scales with the window.
 */
export function BarChart({ label, categories, series, format = (n) => String(Math.round(n * 10) / 10), testId }: BarChartProps) {
  const totals = categories.map((_, i) => series.reduce((s, ser) => s + (ser.values[i] ?? 0), 0));
  const max = niceMax(Math.max(0, ...totals));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, categories.length);
  const barW = Math.max(2, slot * 0.7);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  // Label every day up to 10 bars, then every few days so labels never overlap.
  const every = Math.ceil(categories.length / 10);
  return (
    <>
    <svg className="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} data-testid={testId} preserveAspectRatio="xMidYMid meet">
      {[0, 0.5, 1].map((f) => (
        <g key={f}>
          <line className="grid" x1={PAD.left} x2={W - PAD.right} y1={y(max * f)} y2={y(max * f)} />
          <text className="axis" x={PAD.left - 6} y={y(max * f) + 4} textAnchor="end">
            {format(max * f)}
          </text>
        </g>
      ))}
      {categories.map((cat, i) => {
        let base = 0;
        const x = PAD.left + i * slot + (slot - barW) / 2;
        return (
          <g key={cat} className="bar-group">
            {series.map((ser) => {
              const v = ser.values[i] ?? 0;
              const top = y(base + v);
              const height = y(base) - top;
              base += v;
              return v > 0 ? (
                <rect key={ser.name} className={`bar ${ser.className}`} x={x} y={top} width={barW} height={height} rx={1.5}>
                  <title>{`${cat} · ${ser.name}: ${format(v)}`}</title>
                </rect>
              ) : null;
            })}
            {i % every === 0 ? (
              <text className="axis" x={x + barW / 2} y={H - 6} textAnchor="middle">
                {cat.slice(5)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
    {/* A stacked chart says which colour is which (the bars' <title>s are only on hover). */}
    {series.length > 1 ? (
      <ul className="legend" aria-hidden="true">
        {series.map((ser) => (
          <li key={ser.name}>
            <span className={`swatch ${ser.className}`} />
            {ser.name}
          </li>
        ))}
      </ul>
    ) : null}
    </>
  );
}
