// chart.js — the game-length chart of the table explorer, drawn as inline
// SVG: the observed histogram as bars, the exact P(L=k) as a line of dots,
// both means as dashed lines, and a legend.

const SVG = 'http://www.w3.org/2000/svg';
const OBSERVED = '#e69f00';
const EXACT = '#0072b2';

function el(name, attributes = {}, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// A round step (1, 2 or 5 times a power of ten) near span / count.
function niceStep(span, count) {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

// The last length worth drawing: the last one observed, or where the exact
// distribution has put all but 0.1% of its mass, whichever is later.
function lastLength(exact, observed) {
  let last = 0;
  observed.forEach((c, k) => { if (c > 0) last = k; });
  if (exact) {
    let sum = 0;
    for (let k = 0; k < exact.length; k++) {
      sum += exact[k];
      if (sum >= 0.999) { last = Math.max(last, k); break; }
      if (k === exact.length - 1) last = Math.max(last, k);
    }
  }
  return Math.max(1, last);
}

export function drawLengths(box, data) {
  // Drawn again at its new width when its box's changes (a window turned,
  // narrowed), so its text never shrinks with it.
  box.lengthsData = data;
  if (!box.resizeWatch && typeof ResizeObserver === 'function') {
    let width = box.clientWidth;
    // Drawn in the next frame, not inside the observer's callback, so the
    // new drawing's size is not a change the same callback round must see.
    let pending = false;
    box.resizeWatch = new ResizeObserver(() => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        if (box.clientWidth === width || !box.lengthsData || !box.querySelector('svg')) return;
        width = box.clientWidth;
        drawLengths(box, box.lengthsData);
      });
    });
    box.resizeWatch.observe(box);
  }
  const observed = Array.isArray(data.observed) ? data.observed : [];
  const exact = Array.isArray(data.exact) ? data.exact : null;
  const games = data.games || observed.reduce((a, b) => a + b, 0) || 1;
  const K = lastLength(exact, observed);
  const share = (k) => (observed[k] || 0) / games;
  let top = 0;
  for (let k = 0; k <= K; k++) top = Math.max(top, share(k), exact ? exact[k] || 0 : 0);
  top = top > 0 ? top * 1.08 : 1;

  // Drawn at the width it is shown at (at most 560 px), never scaled down:
  // its ticks and legend keep their 11-12 px on a narrow screen.
  const W = Math.max(280, Math.min(560, box.clientWidth || 560)), H = 320, left = 48, right = 12, topPad = 58,
    bottom = 40;
  const narrow = W < 480;
  const plotW = W - left - right, plotH = H - topPad - bottom;
  const bw = plotW / (K + 1);
  const xAt = (k) => left + (k + 0.5) * bw;   // the centre of length k
  const yAt = (p) => topPad + plotH * (1 - p / top);

  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img',
    'aria-label': 'game length distribution: exact beside observed' });

  // Axes and grid lines.
  const yStep = niceStep(top, 5);
  for (let p = 0; p <= top + 1e-12; p += yStep) {
    svg.append(el('line', { x1: left, x2: W - right, y1: yAt(p), y2: yAt(p), class: 'gridline' }));
    svg.append(el('text', { x: left - 6, y: yAt(p) + 4, 'text-anchor': 'end', class: 'tick' },
      p.toFixed(yStep < 0.01 ? 3 : 2)));
  }
  const xStep = Math.max(1, niceStep(K + 1, narrow ? 6 : 12));
  for (let k = 0; k <= K; k += xStep) {
    svg.append(el('text', { x: xAt(k), y: H - bottom + 16, 'text-anchor': 'middle', class: 'tick' }, k));
  }
  svg.append(el('line', { x1: left, x2: W - right, y1: yAt(0), y2: yAt(0), class: 'axis' }));
  svg.append(el('text', { x: left + plotW / 2, y: H - 6, 'text-anchor': 'middle', class: 'label' },
    'pieces placed k'));
  svg.append(el('text', { x: 12, y: topPad + plotH / 2, 'text-anchor': 'middle', class: 'label',
    transform: `rotate(-90 12 ${topPad + plotH / 2})` }, 'P(L = k)'));

  // Observed bars.
  for (let k = 0; k <= K; k++) {
    const p = share(k);
    if (p <= 0) continue;
    const bar = el('rect', { x: left + k * bw + bw * 0.1, y: yAt(p), width: Math.max(1, bw * 0.8),
      height: yAt(0) - yAt(p), fill: OBSERVED, 'fill-opacity': 0.75, class: 'observed' });
    const exactText = exact ? `, exact ${(exact[k] || 0).toFixed(4)}` : '';
    bar.append(el('title', {}, `k = ${k}: observed ${observed[k]} of ${games} (${p.toFixed(4)})${exactText}`));
    svg.append(bar);
  }

  // Exact line and dots.
  if (exact) {
    const points = [];
    for (let k = 0; k <= K; k++) points.push(`${xAt(k).toFixed(1)},${yAt(exact[k] || 0).toFixed(1)}`);
    svg.append(el('polyline', { points: points.join(' '), fill: 'none', stroke: EXACT, 'stroke-width': 1.5, class: 'exact' }));
    if (bw >= 5) {
      for (let k = 0; k <= K; k++) {
        const dot = el('circle', { cx: xAt(k), cy: yAt(exact[k] || 0), r: Math.min(3, bw / 3), fill: EXACT });
        dot.append(el('title', {}, `k = ${k}: exact ${(exact[k] || 0).toFixed(6)}`));
        svg.append(dot);
      }
    }
  }

  // The means as dashed vertical lines (a mean m sits at the centre of length m).
  const meanLine = (mean, colour) => {
    if (!Number.isFinite(mean)) return;
    const x = Math.min(W - right, xAt(mean));
    svg.append(el('line', { x1: x, x2: x, y1: topPad, y2: yAt(0), stroke: colour, 'stroke-width': 1.5,
      'stroke-dasharray': '5 4', class: 'mean' }));
  };
  meanLine(data.observed_mean, OBSERVED);
  if (exact) meanLine(data.exact_mean, EXACT);

  // Legend.
  const legend = el('g', { class: 'chart-legend' });
  legend.append(el('rect', { x: left, y: 10, width: 14, height: 12, fill: OBSERVED, 'fill-opacity': 0.75 }));
  legend.append(el('text', { x: left + 20, y: 20 },
    narrow ? `observed, ${games} games (mean ${fmt(data.observed_mean)})`
      : `observed, ${games} games of the table policy (mean ${fmt(data.observed_mean)})`));
  if (exact) {
    legend.append(el('line', { x1: left, x2: left + 14, y1: 38, y2: 38, stroke: EXACT, 'stroke-width': 2 }));
    legend.append(el('circle', { cx: left + 7, cy: 38, r: 3, fill: EXACT }));
    legend.append(el('text', { x: left + 20, y: 42 }, `exact P(L = k) (mean ${fmt(data.exact_mean)})`));
  } else {
    legend.append(el('text', { x: left, y: 42 }, 'no exact distribution'));
  }
  svg.append(legend);

  const means = document.createElement('p');
  means.className = 'means';
  means.textContent = exact
    ? `exact mean ${fmt(data.exact_mean)} · observed mean ${fmt(data.observed_mean)} over ${games} games (seed ${data.seed ?? 1}); dashed lines mark the means`
    : `observed mean ${fmt(data.observed_mean)} over ${games} games; no exact distribution: ${data.why_no_exact || 'not given'}`;
  box.replaceChildren(svg, means);
}

function fmt(x) {
  return Number.isFinite(x) ? x.toFixed(4) : '—';
}
