// Small hand-written SVG charts for the run panel: a step-line chart over simulated time with a
// cursor that seeks when clicked, and the helpers it needs. Colours come from CSS (classes, and a
// --hue custom property set through element.style, which the page's CSP allows; style attributes
// written as markup it would refuse).

const NS = "http://www.w3.org/2000/svg";

export function svgElement(name, attributes = {}, text = null) {
  const element = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== null) element.textContent = text;
  return element;
}

/** Round tick values from 0 to at least `max`, about `count` of them (1, 2 or 5 times a power of ten). */
export function niceTicks(max, count, { integers = false } = {}) {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  let step = [1, 2, 5, 10].map((multiple) => multiple * power).find((candidate) => candidate >= rough);
  if (integers) step = Math.max(1, Math.round(step));
  const ticks = [];
  for (let value = 0; value < max + step; value += step) {
    ticks.push(Number(value.toPrecision(12)));
    if (value >= max) break;
  }
  return ticks;
}

export function formatSeconds(seconds) {
  return Number.isInteger(seconds) ? `${seconds}` : seconds.toFixed(1);
}

const SIZE = { height: 150, left: 40, right: 12, top: 10, bottom: 32 };

/**
 * Step lines over simulated time. `draw` lays out axes and series; `moveCursor` only moves the
 * vertical line, so following the player costs nothing but an attribute.
 */
export class TimeChart {
  constructor({ label, yLabel, onSeek }) {
    this.label = label;
    this.yLabel = yLabel;
    this.end = 1;
    this.width = 300;
    this.svg = svgElement("svg", { class: "chart-svg seekable", role: "img", height: SIZE.height });
    this.title = svgElement("title");
    this.plot = svgElement("g");
    this.cursor = svgElement("line", { class: "chart-cursor", y1: SIZE.top, y2: SIZE.height - SIZE.bottom });
    this.svg.append(this.title, this.plot, this.cursor);
    this.svg.addEventListener("click", (event) => onSeek(this.timeAt(event.clientX)));
  }

  x(time) {
    return SIZE.left + (time / this.end) * (this.width - SIZE.left - SIZE.right);
  }

  timeAt(clientX) {
    const box = this.svg.getBoundingClientRect();
    const x = ((clientX - box.left) * this.width) / box.width;
    const share = (x - SIZE.left) / (this.width - SIZE.left - SIZE.right);
    return Math.max(0, Math.min(1, share)) * this.end;
  }

  /**
   * series: step lines [{label, hue, points: [[time, value], ...], dashed?}], already downsampled;
   * areas: stacked layers [{label, hue, points: [[time, bottom, top], ...]}].
   */
  draw({ width, until, yMax, series = [], areas = [], description }) {
    this.width = Math.max(200, Math.round(width));
    // A little room after the last event, so a change it brings shows as a step, not an edge.
    this.end = Math.max(1, until * 1.04);
    this.svg.setAttribute("viewBox", `0 0 ${this.width} ${SIZE.height}`);
    this.svg.setAttribute("width", this.width);
    this.svg.dataset.end = String(this.end);
    const text = `${this.label}, 0 to ${formatSeconds(until)} simulated seconds. ${description}`;
    this.title.textContent = text;
    this.svg.setAttribute("aria-label", text);

    const bottom = SIZE.height - SIZE.bottom;
    const yTicks = niceTicks(Math.max(1, yMax), 4, { integers: true });
    const yTop = yTicks.at(-1);
    const y = (value) => bottom - (value / yTop) * (bottom - SIZE.top);
    const right = this.width - SIZE.right;
    const parts = [];
    for (const tick of yTicks) {
      parts.push(svgElement("line", { class: "chart-grid", x1: SIZE.left, x2: right, y1: y(tick), y2: y(tick) }));
      parts.push(svgElement("text", { class: "chart-tick", x: SIZE.left - 4, y: y(tick) + 3, "text-anchor": "end" }, String(tick)));
    }
    const xCount = Math.max(2, Math.floor((this.width - SIZE.left) / 70));
    for (const tick of niceTicks(this.end, xCount).filter((value) => value <= this.end * 1.0001)) {
      parts.push(svgElement("line", { class: "chart-axis", x1: this.x(tick), x2: this.x(tick), y1: bottom, y2: bottom + 3 }));
      parts.push(svgElement("text", { class: "chart-tick", x: this.x(tick), y: bottom + 13, "text-anchor": "middle" }, formatSeconds(tick)));
    }
    parts.push(svgElement("line", { class: "chart-axis", x1: SIZE.left, x2: right, y1: bottom, y2: bottom }));
    parts.push(svgElement("text", { class: "chart-axis-label", x: (SIZE.left + right) / 2, y: SIZE.height - 3, "text-anchor": "middle" }, "simulated seconds"));
    parts.push(svgElement("text", {
      class: "chart-axis-label", transform: `rotate(-90) translate(${-(SIZE.top + bottom) / 2} 10)`, "text-anchor": "middle",
    }, this.yLabel));
    for (const area of areas) {
      if (!area.points.length) continue;
      const path = svgElement("path", { class: "chart-area", d: this.areaPath(area.points, y), "data-series": area.label });
      path.style.setProperty("--hue", area.hue);
      path.append(svgElement("title", {}, area.label));
      parts.push(path);
    }
    for (const line of series) {
      if (!line.points.length) continue;
      let d = `M${this.x(line.points[0][0]).toFixed(1)} ${y(line.points[0][1]).toFixed(1)}`;
      for (const [time, value] of line.points.slice(1)) d += `H${this.x(time).toFixed(1)}V${y(value).toFixed(1)}`;
      d += `H${this.x(this.end).toFixed(1)}`;
      const path = svgElement("path", { class: `chart-series${line.dashed ? " dashed" : ""}`, d, "data-series": line.label });
      path.style.setProperty("--hue", line.hue);
      path.append(svgElement("title", {}, line.label));
      parts.push(path);
    }
    this.plot.replaceChildren(...parts);
  }

  // Along the layer's top as steps to the end, then back along its bottom (the layer below's top).
  areaPath(points, y) {
    const x = (time) => this.x(time).toFixed(1);
    const at = (value) => y(value).toFixed(1);
    let d = `M${x(points[0][0])} ${at(points[0][2])}`;
    for (const [time, , top] of points.slice(1)) d += `H${x(time)}V${at(top)}`;
    d += `H${x(this.end)}V${at(points.at(-1)[1])}`;
    for (let index = points.length - 1; index > 0; index--) d += `H${x(points[index][0])}V${at(points[index - 1][1])}`;
    return `${d}H${x(points[0][0])}Z`;
  }

  moveCursor(time) {
    const x = this.x(Math.min(Math.max(time, 0), this.end)).toFixed(1);
    this.cursor.setAttribute("x1", x);
    this.cursor.setAttribute("x2", x);
  }
}

/** A legend of coloured swatches: [{label, hue?, dashed?, area?}] (no hue, no swatch). */
export function fillLegend(list, entries) {
  list.replaceChildren(...entries.map((entry) => {
    const item = document.createElement("li");
    if (entry.hue !== undefined) {
      const swatch = document.createElement("span");
      swatch.className = `swatch${entry.dashed ? " dashed" : ""}${entry.area ? " area" : ""}`;
      swatch.style.setProperty("--hue", entry.hue);
      item.append(swatch);
    }
    item.append(entry.label);
    return item;
  }));
}
