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
  /** Counts (dictations, tokens): every gridline sits on a whole number, so a bar of 3 ends on the "3" line. */
  readonly integer?: boolean;
  /** The axis label of a category (default: a YYYY-MM-DD day as MM-DD). */
  readonly tickLabel?: (category: string) => string;
  readonly testId?: string;
}

// The drawing's own units: close to the width a chart gets in the window, so 12-unit labels read as ~12 px.
const W = 440;
const H = 170;
const PAD = { left: 44, right: 8, top: 10, bottom: 24 };

/**
 * The gridline values, 0 first: a "nice" step (1, 2 or 5 × 10^k) giving at most four steps up to a top at or
 * above `max`; for counts the step is a whole number, so every label is exact (never a rounded 0.5).
 */
export function axisTicks(max: number, integer: boolean): number[] {
  if (max <= 0) return integer ? [0, 1] : [0, 0.5, 1];
  const raw = max / 4;
  const p = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? 10 * p;
  if (integer) step = Math.max(1, Math.ceil(step));
  const ticks: number[] = [];
  for (let v = 0; v < max + step; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/**
 * A stacked bar chart drawn as SVG elements with geometry attributes and CSS classes only (no style
 * attributes), so it renders under the strict CSP and scales with the window.
 */
export function BarChart({ label, categories, series, format = (n) => String(Math.round(n * 10) / 10), integer = false, tickLabel = (c) => c.slice(5), testId }: BarChartProps) {
  const totals = categories.map((_, i) => series.reduce((s, ser) => s + (ser.values[i] ?? 0), 0));
  const ticks = axisTicks(Math.max(0, ...totals), integer);
  const max = ticks.at(-1) ?? 1;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, categories.length);
  const barW = Math.max(2, slot * 0.7);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  // Label every bar up to 7, then every few so labels never overlap.
  const every = Math.ceil(categories.length / 7);
  return (
    <>
    <svg className="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} data-testid={testId} preserveAspectRatio="xMidYMid meet">
      {ticks.map((v) => (
        <g key={v}>
          <line className="grid" x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} />
          <text className="axis" x={PAD.left - 6} y={y(v) + 4} textAnchor="end">
            {format(v)}
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
                {tickLabel(cat)}
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
