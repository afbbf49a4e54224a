// The cost-bandwidth chart: SVG drawn at the width of its box from the JSON that
// topolab.report.interactive.cost_bandwidth_data writes (a series per family, each point with
// its hover lines), redrawn when the box changes width. Hovering or tapping a point shows its
// lines; a family's legend entry hides or shows it; "show all" widens the first view's y range
// to the designs far out.
(function () {
  "use strict";
  const source = document.getElementById("cost-bandwidth-data");
  const box = document.getElementById("cost-bandwidth-chart");
  if (!source || !box) return;
  const data = JSON.parse(source.textContent);
  const NS = "http://www.w3.org/2000/svg";
  const hidden = new Set();
  let showAll = false;

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  // A marker's outline around (0, 0), about 2r across: the symbols of report/styles.py.
  function polygon(points) {
    return "M" + points.map(([x, y]) => x.toFixed(2) + "," + y.toFixed(2)).join("L") + "Z";
  }
  function regular(n, r, turn) {
    const out = [];
    for (let i = 0; i < n; i++) {
      const a = turn + (2 * Math.PI * i) / n;
      out.push([r * Math.cos(a), r * Math.sin(a)]);
    }
    return out;
  }
  function star(r) {
    const out = [];
    for (let i = 0; i < 10; i++) {
      const a = -Math.PI / 2 + (Math.PI * i) / 5;
      const d = i % 2 ? r * 0.45 : r;
      out.push([d * Math.cos(a), d * Math.sin(a)]);
    }
    return out;
  }
  function shape(symbol, r) {
    const t = r * 0.38;
    switch (symbol) {
      case "square": return polygon([[-r * 0.85, -r * 0.85], [r * 0.85, -r * 0.85], [r * 0.85, r * 0.85], [-r * 0.85, r * 0.85]]);
      case "triangle-up": return polygon(regular(3, r * 1.1, -Math.PI / 2));
      case "triangle-down": return polygon(regular(3, r * 1.1, Math.PI / 2));
      case "triangle-left": return polygon(regular(3, r * 1.1, Math.PI));
      case "triangle-right": return polygon(regular(3, r * 1.1, 0));
      case "diamond": return polygon([[0, -r * 1.15], [r * 0.85, 0], [0, r * 1.15], [-r * 0.85, 0]]);
      case "pentagon": return polygon(regular(5, r * 1.05, -Math.PI / 2));
      case "hexagon": return polygon(regular(6, r * 1.0, 0));
      case "star": return polygon(star(r * 1.3));
      case "cross": return polygon([[-t, -r], [t, -r], [t, -t], [r, -t], [r, t], [t, t], [t, r], [-t, r], [-t, t], [-r, t], [-r, -t], [-t, -t]]);
      case "x": {
        const c = Math.SQRT1_2;
        const p = [[-t, -r], [t, -r], [t, -t], [r, -t], [r, t], [t, t], [t, r], [-t, r], [-t, t], [-r, t], [-r, -t], [-t, -t]];
        return polygon(p.map(([x, y]) => [c * (x - y), c * (x + y)]));
      }
      default: return "M" + -r + ",0A" + r + "," + r + " 0 1,0 " + r + ",0A" + r + "," + r + " 0 1,0 " + -r + ",0Z";
    }
  }

  function niceStep(span, count) {
    const raw = span / Math.max(count, 1);
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= raw) return m * power;
    return 10 * power;
  }
  function linearTicks(lo, hi, count) {
    const step = niceStep(hi - lo, count);
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(+v.toPrecision(12));
    return out;
  }
  function logTicks(lo, hi, width) {
    const out = [];
    const leading = width < 500 ? [1, 3] : [1, 2, 5];
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++)
      for (const m of leading) {
        const v = m * Math.pow(10, e);
        if (v >= lo && v <= hi) out.push(v);
      }
    return out;
  }
  const money = (v) => "$" + v.toLocaleString("en-US", { maximumFractionDigits: 0 });
  const plain = (v) => v.toLocaleString("en-US", { maximumFractionDigits: 3 });

  const tip = document.createElement("div");
  tip.className = "chart-tip";
  tip.hidden = true;
  const plot = document.createElement("div");
  plot.className = "chart-plot";
  box.appendChild(plot);
  box.appendChild(tip);

  function showTip(lines, px, py) {
    tip.replaceChildren();
    lines.forEach((line, i) => {
      const div = document.createElement("div");
      div.textContent = line;
      if (i === 0) div.className = "chart-tip-title";
      tip.appendChild(div);
    });
    tip.hidden = false;
    const w = box.clientWidth;
    tip.style.left = Math.max(0, Math.min(px + 12, w - tip.offsetWidth - 4)) + "px";
    tip.style.top = Math.max(0, py - tip.offsetHeight - 10) + "px";
  }

  const all = data.families.flatMap((f) => f.points);
  function extent(values) {
    return [Math.min(...values), Math.max(...values)];
  }

  function draw() {
    const width = Math.max(240, plot.clientWidth || box.clientWidth);
    const narrow = width < 500;
    const height = Math.round(Math.max(280, Math.min(540, width * (narrow ? 0.95 : 0.55))));
    const m = { l: narrow ? 46 : 62, r: 10, t: 10, b: 40 };
    const iw = width - m.l - m.r, ih = height - m.t - m.b;
    let [x0, x1] = extent(all.map((p) => p.x));
    let [y0, y1] = extent(all.map((p) => p.y + (p.rise || 0)));
    if (data.y_view && !showAll) [y0, y1] = data.y_view;
    const padY = 0.05 * Math.max(y1 - y0, 0.05);
    if (!(data.y_view && !showAll)) { y0 -= padY; y1 += padY; }
    let sx;
    if (data.x_log) {
      const a = Math.log10(x0) - 0.04 * Math.log10(x1 / x0), b = Math.log10(x1) + 0.04 * Math.log10(x1 / x0);
      x0 = Math.pow(10, a); x1 = Math.pow(10, b);
      sx = (v) => m.l + ((Math.log10(v) - a) / (b - a)) * iw;
    } else {
      const pad = 0.05 * Math.max(x1 - x0, 1);
      x0 -= pad; x1 += pad;
      sx = (v) => m.l + ((v - x0) / (x1 - x0)) * iw;
    }
    const sy = (v) => m.t + ih - ((v - y0) / (y1 - y0)) * ih;

    const svg = el("svg", { width: width, height: height, viewBox: `0 0 ${width} ${height}`, role: "img",
      "aria-label": "cost per endpoint against " + data.y_label + ", one point per design" });
    const clip = "cost-bandwidth-clip";
    el("rect", { x: m.l, y: m.t, width: iw, height: ih }, el("clipPath", { id: clip }, el("defs", {}, svg)));
    const axes = el("g", { class: "axes" }, svg);
    for (const v of data.x_log ? logTicks(x0, x1, width) : linearTicks(x0, x1, narrow ? 4 : 8)) {
      const x = sx(v);
      el("line", { x1: x, x2: x, y1: m.t, y2: m.t + ih, class: "grid" }, axes);
      el("text", { x: x, y: m.t + ih + 14, "text-anchor": "middle" }, axes).textContent = money(v);
    }
    for (const v of linearTicks(y0, y1, narrow ? 5 : 7)) {
      const y = sy(v);
      el("line", { x1: m.l, x2: m.l + iw, y1: y, y2: y, class: "grid" }, axes);
      el("text", { x: m.l - 5, y: y + 4, "text-anchor": "end" }, axes).textContent = plain(v);
    }
    el("rect", { x: m.l, y: m.t, width: iw, height: ih, class: "frame" }, axes);
    el("text", { x: m.l + iw / 2, y: height - 6, "text-anchor": "middle", class: "label" }, axes).textContent =
      data.x_label + (data.x_log ? " (log)" : "");
    el("text", { x: 12, y: m.t + ih / 2, "text-anchor": "middle", class: "label",
      transform: `rotate(-90 12 ${m.t + ih / 2})` }, axes).textContent = data.y_label;

    const layer = el("g", { "clip-path": `url(#${clip})` }, svg);
    function point(p, symbol, color, r, ring, family) {
      const x = sx(p.x), y = sy(p.y);
      if (p.rise) el("line", { x1: x, x2: x, y1: y, y2: sy(p.y + p.rise), class: "bar" }, layer);
      const mark = el("path", { d: shape(symbol, r), transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`,
        fill: color, stroke: ring ? "#000" : "none", "stroke-width": ring ? 1.4 : 0, class: "point",
        "data-family": family, "data-name": p.hover[0], tabindex: 0 }, layer);
      if (!ring) mark.setAttribute("fill-opacity", "0.8");
      const show = () => showTip(p.hover, x, y);
      mark.addEventListener("mouseenter", show);
      mark.addEventListener("focus", show);
      mark.addEventListener("click", (e) => { e.stopPropagation(); show(); });
      mark.addEventListener("mouseleave", () => { tip.hidden = true; });
      return mark;
    }
    for (const f of data.families) {
      if (hidden.has(f.name)) continue;
      // off the front first, so that the front is drawn on top
      for (const front of [false, true])
        for (const p of f.points) if (p.front === front) point(p, f.symbol, f.color, front ? 6.5 : 4.5, front, f.name);
    }
    const best = data.recommended;
    if (best) {
      point(best, "star", "gold", 10, true, "recommended").setAttribute("class", "point recommended");
      const x = sx(best.x), y = sy(best.y);
      const right = x < m.l + iw / 2;  // the label on the side with more room
      const label = el("text", { x: x + (right ? 14 : -14), y: Math.max(y - 12, m.t + 12),
        "text-anchor": right ? "start" : "end", class: "recommended-label" }, svg);
      // on a phone the name is in the answer above the chart, and would not fit beside the star
      label.textContent = narrow ? "recommended" : "recommended: " + best.name;
    }
    plot.replaceChildren(svg);
  }

  // The legend: the families present, each a button that hides or shows it, then the marks.
  const legend = document.createElement("div");
  legend.className = "chart-legend";
  function swatch(symbol, color, ring) {
    const s = el("svg", { width: 14, height: 14, viewBox: "-7 -7 14 14", "aria-hidden": "true" });
    el("path", { d: shape(symbol, symbol === "star" ? 5 : 5), fill: color, stroke: ring ? "#000" : "none" }, s);
    return s;
  }
  const best = document.createElement("span");
  best.className = "legend-item legend-recommended";
  best.append(swatch("star", "gold", true), " recommended");
  const ring = document.createElement("span");
  ring.className = "legend-item";
  ring.append(swatch("circle", "#fff", true), " ringed, larger: on the Pareto front");
  legend.append(best, ring);
  for (const f of data.families) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "legend-item";
    b.title = "hide or show " + f.name;
    b.setAttribute("aria-pressed", "true");
    b.dataset.family = f.name;
    b.append(swatch(f.symbol, f.color, false), " " + f.name);
    b.addEventListener("click", () => {
      if (hidden.has(f.name)) hidden.delete(f.name); else hidden.add(f.name);
      b.setAttribute("aria-pressed", hidden.has(f.name) ? "false" : "true");
      draw();
    });
    legend.appendChild(b);
  }
  if (data.y_view) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "legend-item show-all";
    const label = () => (showAll ? "first view" : `show all (${data.far_out} far out above)`);
    b.textContent = label();
    b.addEventListener("click", () => { showAll = !showAll; b.textContent = label(); draw(); });
    legend.appendChild(b);
  }
  box.appendChild(legend);
  box.addEventListener("click", () => { tip.hidden = true; });

  let drawnWidth = -1;
  const redraw = () => {
    const w = plot.clientWidth;
    if (w !== drawnWidth) { drawnWidth = w; draw(); }
  };
  draw();
  drawnWidth = plot.clientWidth;
  if (window.ResizeObserver) new ResizeObserver(redraw).observe(box);
  else window.addEventListener("resize", redraw);
})();
