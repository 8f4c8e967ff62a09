// The live charts, redrawn on every knob move: uPlot (canvas, ~22 KB gzip). Measured in headless
// chromium on 2 cores with software rendering (docs/WEB.md): a slider move redrew ECharts' three
// charts in 41–55 ms median (its setOption alone costs ~7 ms per chart, even unchanged), uPlot's
// memory chart in 0.5 ms and its 2,000-op Gantt in 2 ms. The exported figures (PNG, SVG with the
// context line) still come from ECharts (charts.js): uPlot draws no SVG.
"use strict";

function boxSize(el) {
  // The height is the canvas's (data-height on the chart's element); the title sits above it and
  // the legend below, wrapping onto as many lines as a narrow column needs.
  return { width: Math.max(200, el.clientWidth), height: Number(el.dataset.height) || 200 };
}

// Memory per pipeline stage: the parts stacked, bottom up in the legend's order, against the
// capacity line; the bars are painted onto uPlot's canvas (the series carry the legend).
function memoryChart(el) {
  const parts = ["weights", "gradients", "optimizer", "activations", "other"];
  const state = { capacity: 0, top: 100, stages: [] };
  const paint = (u) => {
    const ctx = u.ctx, w = Math.abs(u.valToPos(1, "x", true) - u.valToPos(0, "x", true)) * 0.6;
    ctx.save();
    state.stages.forEach((st, i) => {
      let base = 0;
      const x = u.valToPos(i, "x", true) - w / 2;
      for (const p of parts) {
        const v = st[p] / GIB, y0 = u.valToPos(base, "y", true), y1 = u.valToPos(base + v, "y", true);
        ctx.fillStyle = COLORS[p];
        ctx.fillRect(x, y1, w, y0 - y1);
        base += v;
      }
    });
    const y = u.valToPos(state.capacity, "y", true);
    ctx.strokeStyle = "#D55E00";
    ctx.lineWidth = 2 * devicePixelRatio;
    ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
    ctx.beginPath(); ctx.moveTo(u.bbox.left, y); ctx.lineTo(u.bbox.left + u.bbox.width, y); ctx.stroke();
    ctx.fillStyle = "#333";
    ctx.textAlign = "left";
    ctx.textBaseline = "bottom";
    ctx.font = 12 * devicePixelRatio + "px sans-serif";
    ctx.fillText(t("capacity") + " " + state.capacity.toFixed(1) + " GiB", u.bbox.left + 6, y - 4 * devicePixelRatio);
    ctx.restore();
  };
  const u = new uPlot({
    ...boxSize(el), title: t("memTitle"), legend: { live: false },
    scales: { x: { time: false, range: () => [-0.5, Math.max(state.stages.length, 1) - 0.5] },
              y: { range: () => [0, state.top] } },
    axes: [{ label: t("stageAxis"), splits: () => state.stages.map((s, i) => i),
             values: (u, v) => v.map((i) => String(state.stages[i] ? state.stages[i].stage : "")) },
           { label: t("memAxis"), size: 44, labelFont: "bold 11px sans-serif", labelSize: 20 }],
    series: [{}, ...parts.map((p) => ({ label: t(p), fill: COLORS[p], stroke: COLORS[p] }))],
    hooks: { draw: [paint] },
  }, [[0, 1], ...parts.map(() => [null, null])], el);
  return {
    plot: u,
    update(report) {
      state.stages = report.memory.stages;
      state.capacity = report.memory.capacity_bytes / GIB;
      const peak = report.memory.peak_bytes / GIB;
      state.top = Math.ceil(Math.max(state.capacity, peak) * 1.15 / 10) * 10;
      u.setData([[0, 1], ...parts.map(() => [null, null])]);
    },
  };
}

// The axis has a few pixels per collective: AllGather → AG (the export writes them whole).
const SHORT_COLLECTIVE = { all_gather: "AG", reduce_scatter: "RS", all_reduce: "AR", all_to_all: "A2A",
                           send_recv: "P2P", broadcast: "BC", reduce: "R" };

// Communication per collective: time on the link and the part not overlapped, side by side.
function commChart(el) {
  let names = [];
  const u = new uPlot({
    ...boxSize(el), title: t("commTitle"), legend: { live: false },
    scales: { x: { time: false, range: (u, min, max) => [min - 0.5, max + 0.5] }, y: { range: (u, min, max) => [0, max * 1.1 || 1] } },
    axes: [{ splits: (u) => u.data[0], values: (u, v) => v.map((i) => names[i] || ""), rotate: -30, size: 40,
             font: "10px sans-serif" },
           { label: t("commAxis"), size: 48, labelFont: "bold 11px sans-serif", labelSize: 20 }],
    series: [{},
             { label: t("onLink"), fill: "#56B4E9", width: 0, paths: uPlot.paths.bars({ size: [0.35, 40], align: -1 }), points: { show: false } },
             { label: t("exposed"), fill: "#D55E00", width: 0, paths: uPlot.paths.bars({ size: [0.35, 40], align: 1 }), points: { show: false } }],
  }, [[0], [0], [0]], el);
  return {
    plot: u,
    update(report) {
      const rows = report.communication;
      names = rows.map((c) => c.group.toUpperCase() + " " + (SHORT_COLLECTIVE[c.collective] || c.collective));
      u.setData([rows.map((c, i) => i), rows.map((c) => c.time_s), rows.map((c) => c.exposed_s)]);
    },
  };
}

// The Gantt: a row per pipeline rank, compute ops as bars, communication as a thin bar under
// them (the desktop app's drawing), painted straight onto uPlot's canvas.
function ganttChart(el) {
  const state = { ops: [], types: [], rows: new Map(), ranks: [], step: 1 };
  const paint = (u) => {
    const ctx = u.ctx, h = Math.abs(u.valToPos(1, "y", true) - u.valToPos(0, "y", true));
    ctx.save();
    ctx.beginPath(); ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height); ctx.clip();
    const f = state.ops; // six whole numbers per op: rank, lane, type, start µs, end µs, microbatch
    for (let i = 0; i + 5 < f.length; i += 6) {
      const type = state.types[f[i + 2]], comm = f[i + 1] === 1;
      ctx.fillStyle = comm ? COLORS.comm : type === "F" ? COLORS.F : type === "optimizer" ? COLORS.optimizerStep : COLORS.B;
      const x0 = u.valToPos(f[i + 3] / 1e6, "x", true), x1 = u.valToPos(f[i + 4] / 1e6, "x", true);
      const y = u.valToPos(state.rows.get(f[i]), "y", true);
      ctx.fillRect(x0, comm ? y + h * 0.3 : y - h * 0.35, Math.max(x1 - x0, 1), h * (comm ? 0.15 : 0.6));
    }
    ctx.restore();
  };
  const u = new uPlot({
    ...boxSize(el), title: " ", legend: { live: false },
    scales: { x: { time: false, range: () => [0, state.step] }, y: { range: () => [-0.5, state.ranks.length - 0.5], dir: -1 } },
    axes: [{ label: t("timeAxis") },
           { splits: () => state.ranks.map((r, i) => i), values: (u, v) => v.map((i) => "rank " + state.ranks[i]), size: 56,
             grid: { show: false } }],
    series: [{}, { label: t("forward"), fill: COLORS.F, stroke: COLORS.F }, { label: t("backward"), fill: COLORS.B, stroke: COLORS.B },
             { label: t("comm"), fill: COLORS.comm, stroke: COLORS.comm }, { label: t("optimizerStep"), fill: "#000", stroke: "#000" }],
    hooks: { draw: [paint] },
  }, [[0, 1], [null, null], [null, null], [null, null], [null, null]], el);
  return {
    plot: u,
    update(gantt) {
      const ranks = new Set();
      for (let i = 0; i < gantt.ops.length; i += 6) ranks.add(gantt.ops[i]);
      state.ranks = [...ranks].sort((a, b) => a - b);
      state.types = gantt.types;
      state.rows = new Map(state.ranks.map((r, i) => [r, i]));
      state.ops = gantt.ops;
      state.step = gantt.drawn_s; // the drawn ops' end: a long step draws its first microbatches
      u.root.querySelector(".u-title").textContent = gantt.schedule + " · " + t("stepTime") + " " + gantt.step_s.toFixed(2) + " s"
        + bandSuffix(gantt) + drawnSuffix(gantt);
      u.setData([[0, gantt.drawn_s], [null, null], [null, null], [null, null], [null, null]]);
    },
  };
}

// The three live charts, made again when the language changes (their labels are built in).
const LIVE = { memory: null, comm: null, timeline: null };
function makeLiveCharts() {
  for (const [id, make] of [["memory", memoryChart], ["comm", commChart], ["timeline", ganttChart]]) {
    const el = document.getElementById("chart-" + id);
    if (LIVE[id]) LIVE[id].plot.destroy();
    el.textContent = "";
    LIVE[id] = make(el);
  }
}
function resizeLiveCharts() {
  for (const id of Object.keys(LIVE))
    if (LIVE[id]) LIVE[id].plot.setSize(boxSize(document.getElementById("chart-" + id)));
}
