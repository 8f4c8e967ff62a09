// The three charts as ECharts options, built from the engine's JSON (parascope.report/1 and
// parascope.timeline/1) and nothing else: the page computes no number of its own.
"use strict";
const GIB = 1024 ** 3;
// The desktop app's palette (Okabe–Ito): the same part has the same colour in both.
const COLORS = { weights: "#0072B2", gradients: "#56B4E9", optimizer: "#009E73", activations: "#E69F00",
                 other: "#999999", F: "#0072B2", B: "#E69F00", comm: "#D55E00", optimizerStep: "#000000" };

function memoryOption(report, context) {
  const stages = report.memory.stages;
  const parts = ["weights", "gradients", "optimizer", "activations", "other"];
  const capacity = report.memory.capacity_bytes / GIB;
  const series = parts.map((p) => ({
    name: t(p), type: "bar", stack: "m", itemStyle: { color: COLORS[p] }, animation: false,
    data: stages.map((s) => +(s[p] / GIB).toFixed(3)),
  }));
  series[series.length - 1].markLine = {
    symbol: "none", silent: true, lineStyle: { color: "#D55E00", type: "dashed", width: 2 },
    label: { formatter: t("capacity") + " " + capacity.toFixed(1) + " GiB", position: "insideStartTop" },
    data: [{ yAxis: capacity }],
  };
  return {
    animation: false,
    title: { text: t("memTitle"), subtext: context || "", left: "center", textStyle: { fontSize: 13 } },
    tooltip: { trigger: "axis", valueFormatter: (v) => v.toFixed(2) + " GiB" },
    legend: { type: "scroll", bottom: 0, itemWidth: 12, textStyle: { fontSize: 11 } },
    grid: { left: 50, right: 12, top: context ? 60 : 40, bottom: 62 },
    xAxis: { type: "category", name: t("stageAxis"), nameLocation: "middle", nameGap: 22,
             data: stages.map((s) => String(s.stage)) },
    yAxis: { type: "value", name: t("memAxis"), nameLocation: "middle", nameGap: 34,
             max: (v) => Math.ceil(Math.max(v.max, capacity) * 1.15 / 10) * 10 },
    series,
  };
}

function commOption(report, context) {
  const rows = report.communication;
  const names = rows.map((c) => c.group.toUpperCase() + " " + c.collective + " · " + c.purpose);
  return {
    animation: false,
    title: { text: t("commTitle"), subtext: context || "", left: "center", textStyle: { fontSize: 13 } },
    tooltip: { trigger: "axis", valueFormatter: (v) => (v >= 1 ? v.toFixed(2) + " s" : (v * 1e3).toFixed(1) + " ms") },
    legend: { type: "scroll", bottom: 0, itemWidth: 12, textStyle: { fontSize: 11 } },
    grid: { left: 8, right: 16, top: context ? 52 : 32, bottom: 40, containLabel: true },
    xAxis: { type: "value", name: t("commAxis"), nameLocation: "middle", nameGap: 22, splitNumber: 3,
             axisLabel: { hideOverlap: true } },
    yAxis: { type: "category", data: names, inverse: true, axisLabel: { fontSize: 10 } },
    series: [
      { name: t("onLink"), type: "bar", itemStyle: { color: "#56B4E9" }, data: rows.map((c) => +c.time_s.toPrecision(4)) },
      { name: t("exposed"), type: "bar", itemStyle: { color: "#D55E00" }, data: rows.map((c) => +c.exposed_s.toPrecision(4)) },
    ],
  };
}

// The Gantt: one row per pipeline rank, its compute ops as bars and its communication (sends,
// the data-parallel collectives) as a thin bar under them, as the desktop app draws it. Each kind
// of op is one "lines" series in large mode (a segment per op, as wide as a bar is high): drawn in
// one path per colour, so a step of thousands of ops redraws within a slider move.
// The engine's flat list (six whole numbers per op: rank, lane, type index, start µs, end µs,
// microbatch) as one array per op with the type's name.
function ganttOps(gantt) {
  const ops = [];
  for (let i = 0; i + 5 < gantt.ops.length; i += 6) {
    const f = gantt.ops;
    ops.push([f[i], f[i + 1], gantt.types[f[i + 2]], f[i + 3], f[i + 4], f[i + 5]]);
  }
  return ops;
}

const GANTT_KINDS = [["forward", (o) => o[1] === 0 && o[2] === "F"],
                     ["backward", (o) => o[1] === 0 && (o[2] === "B" || o[2] === "I" || o[2] === "W")],
                     ["optimizerStep", (o) => o[1] === 0 && o[2] === "optimizer"],
                     ["comm", (o) => o[1] === 1]];
const GANTT_GRID = { left: 60, right: 16, top: 30, bottom: 62 };

function timelineOption(gantt, context, heightPx) {
  const ops = ganttOps(gantt);
  const ranks = [...new Set(ops.map((o) => o[0]))].sort((a, b) => a - b);
  const row = new Map(ranks.map((r, i) => [r, i]));
  const top = context ? 52 : GANTT_GRID.top;
  const rowPx = Math.max(2, ((heightPx || 230) - top - GANTT_GRID.bottom) / Math.max(ranks.length, 1));
  const colours = { forward: COLORS.F, backward: COLORS.B, optimizerStep: COLORS.optimizerStep, comm: COLORS.comm };
  const series = GANTT_KINDS.map(([kind, isKind]) => {
    const comm = kind === "comm";
    const coords = [];
    for (const o of ops) {
      if (!isKind(o)) continue;
      const y = row.get(o[0]) + (comm ? 0.38 : -0.08);
      coords.push({ coords: [[o[3] / 1e6, y], [Math.max(o[4], o[3] + 1) / 1e6, y]] });
    }
    return { name: t(kind), type: "lines", coordinateSystem: "cartesian2d", yAxisIndex: 1, large: coords.length > 0, largeThreshold: 0, // large with no data fails in ECharts 6.1
             silent: true, animation: false, polyline: false, data: coords,
             lineStyle: { color: colours[kind], width: rowPx * (comm ? 0.15 : 0.65), opacity: 1, cap: "butt" } };
  });
  return {
    animation: false,
    title: { text: gantt.schedule + " · " + t("stepTime") + " " + gantt.step_s.toFixed(2) + " s" + bandSuffix(gantt) + drawnSuffix(gantt),
             subtext: context || "", left: "center", textStyle: { fontSize: 13 } },
    legend: { type: "scroll", bottom: 0, itemWidth: 12, textStyle: { fontSize: 11 }, selectedMode: false },
    grid: Object.assign({}, GANTT_GRID, { top }),
    xAxis: { type: "value", name: t("timeAxis"), nameLocation: "middle", nameGap: 22, min: 0,
             max: +gantt.drawn_s.toFixed(3), axisLabel: { showMaxLabel: false } },
    // The ranks' names on a category axis; the ops on a hidden value axis over the same rows
    // (row i at i, from −0.5 to n − 0.5), where a communication bar sits a fraction below its row.
    yAxis: [{ type: "category", inverse: true, data: ranks.map((r) => "rank " + r), axisTick: { show: false },
              axisLabel: { fontSize: 10, interval: "auto" } },
            { type: "value", inverse: true, min: -0.5, max: ranks.length - 0.5, show: false }],
    series,
  };
}
