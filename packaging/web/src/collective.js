// The collective explainer (the desktop app's Collectives tab): one collective step by step —
// which GPU sends which chunk to whom over which link, the time by the α–β model, algbw and busbw
// as nccl-tests prints them, and the bandwidth ladder from the datasheet to busbw. The engine
// plans it ("collective": comm/collective_steps.h); the page draws the GPUs on a circle and each
// step's transfers as arrows.
"use strict";
const OPS = ["all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast"];
const ALGORITHMS = ["", "ring", "tree", "nvls", "hierarchical", "flat_ring", "binomial_tree"];
const LINK_COLOUR = { nvlink: "#0072B2", network: "#D55E00", pcie: "#009E73" };
const explainer = { plan: null, step: 0 };

function fillExplainerControls() {
  const op = $("coll-op"), alg = $("coll-algorithm"), cluster = $("coll-cluster");
  if (!op.options.length) {
    for (const o of OPS) op.add(new Option(o, o));
    for (const a of ALGORITHMS) alg.add(new Option(a, a));
    cluster.add(new Option("", SCENARIO_CLUSTER));
    for (const p of state.presets.clusters) cluster.add(new Option(p.name, p.id));
    cluster.value = "dgx-h100";
    for (const id of ["coll-op", "coll-size", "coll-unit", "coll-ranks", "coll-per-node", "coll-cluster", "coll-algorithm"])
      $(id).addEventListener("change", planCollective);
    $("coll-prev").addEventListener("click", () => showCollectiveStep(explainer.step - 1));
    $("coll-next").addEventListener("click", () => showCollectiveStep(explainer.step + 1));
    $("coll-scrub").addEventListener("input", () => showCollectiveStep(+$("coll-scrub").value));
  }
  alg.options[0].textContent = t("enginePick");
  cluster.options[0].textContent = t("scenarioCluster");
}
const SCENARIO_CLUSTER = "__scenario";
// Row `entry` of the scenario's communication table: the engine plays that row as it charged it
// (its bytes per call, its group's GPUs and GPUs per node, its algorithm, on the scenario's
// cluster) and the controls show what it chose.
function explainCommEntry(entry) {
  openExplainer();
  $("coll-cluster").value = SCENARIO_CLUSTER;
  if (!showPlan(call("collective", { scenario: state.scenario, entry, lang: LANG }))) return;
  const p = explainer.plan;
  $("coll-op").value = p.op;
  const mib = p.bytes / 1024 ** 2;
  $("coll-size").value = mib >= 1024 ? +(mib / 1024).toPrecision(6) : +mib.toPrecision(6);
  $("coll-unit").value = mib >= 1024 ? "GiB" : "MiB";
  $("coll-ranks").value = p.ranks;
  $("coll-per-node").value = p.gpus_per_node;
  $("coll-algorithm").value = p.algorithm;
}
function openExplainer() {
  fillExplainerControls();
  $("collective").showModal();
  if (!explainer.plan) planCollective();
}
// The controls as they stand: a collective set by hand (on a preset, or the scenario's cluster).
function planCollective() {
  const size = Number($("coll-size").value) * ($("coll-unit").value === "GiB" ? 1024 ** 3 : 1024 ** 2);
  const request = { op: $("coll-op").value, bytes: size, ranks: Number($("coll-ranks").value), lang: LANG };
  if ($("coll-cluster").value === SCENARIO_CLUSTER) request.scenario = state.scenario;
  else request.cluster = $("coll-cluster").value;
  if ($("coll-per-node").value) request.gpus_per_node = Number($("coll-per-node").value);
  if ($("coll-algorithm").value) request.algorithm = $("coll-algorithm").value;
  showPlan(call("collective", request));
}
function showPlan(answer) {
  $("coll-errors").hidden = !answer.errors;
  if (answer.errors) {
    $("coll-errors").textContent = answer.errors.map((x) => x.path + ": " + x.message).join("; ");
    return false;
  }
  explainer.plan = answer.ok;
  renderCollective(answer.ok);
  showCollectiveStep(0);
  return true;
}
function seconds(s) { return s >= 1 ? s.toFixed(2) + " s" : s >= 1e-3 ? (s * 1e3).toFixed(2) + " ms" : (s * 1e6).toFixed(1) + " µs"; }
function renderCollective(p) {
  $("coll-headline").textContent = t("collHeadline", p.algorithm, p.op, formatBytes(p.bytes), p.ranks, p.nodes, p.gpus_per_node);
  $("coll-figures").textContent = t("collFigures", seconds(p.time_s), p.algbw_gbps.toFixed(1), p.busbw_gbps.toFixed(1));
  const same = p.algorithm === p.engine_algorithm;
  $("coll-engine").textContent = (p.channels > 1 ? t("collChannels", p.channels) + " " : "") +
    (same ? t("collEngineSame", p.algorithm, seconds(p.time_s))
          : (p.teaching_only ? t("collTeaching") + " " : "") +
            t("collEngineOther", p.engine_algorithm, seconds(p.engine_time_s), (p.time_s / p.engine_time_s).toFixed(2))) +
    (p.engine_algorithm === "deepep" ? " " + t("collDeepEp") : "");
  $("coll-ladder").textContent = p.ladder_lines.join("\n");
  $("coll-terms").textContent = p.terms.map((x) => x.name + " = " + x.formula + "  [" + x.substituted + "]").join("\n");
  $("coll-scrub").max = p.steps.length - 1;
}
function showCollectiveStep(i) {
  const p = explainer.plan;
  if (!p) return;
  explainer.step = Math.max(0, Math.min(i, p.steps.length - 1));
  const s = p.steps[explainer.step];
  $("coll-scrub").value = explainer.step;
  $("coll-step").textContent = t("collStep", explainer.step + 1, p.steps.length, s.phase, seconds(s.start_s), seconds(s.end_s)) +
    (s.transfers.length ? "" : " " + t("collNoTransfers"));
  drawCollective($("coll-canvas"), p, s);
}
// The GPUs on a circle, coloured by node; the step's transfers as arrows, coloured by link.
function drawCollective(canvas, p, s) {
  const ratio = window.devicePixelRatio || 1, w = canvas.clientWidth, h = canvas.clientHeight;
  canvas.width = w * ratio;
  canvas.height = h * ratio;
  const g = canvas.getContext("2d");
  g.scale(ratio, ratio);
  const cx = w / 2, cy = h / 2, r = Math.min(w, h) / 2 - 24, dot = Math.max(4, Math.min(14, 150 / p.ranks));
  const at = (k) => [cx + r * Math.sin(2 * Math.PI * k / p.ranks), cy - r * Math.cos(2 * Math.PI * k / p.ranks)];
  for (const x of s.transfers) {
    const [x0, y0] = at(x.from), [x1, y1] = at(x.to);
    const len = Math.hypot(x1 - x0, y1 - y0) || 1, ux = (x1 - x0) / len, uy = (y1 - y0) / len;
    const ex = x1 - ux * dot, ey = y1 - uy * dot;
    g.strokeStyle = g.fillStyle = LINK_COLOUR[x.link] || "#555";
    g.lineWidth = 1.5;
    g.setLineDash(x.reduce ? [4, 2] : []);
    g.beginPath(); g.moveTo(x0 + ux * dot, y0 + uy * dot); g.lineTo(ex, ey); g.stroke();
    g.beginPath(); g.moveTo(ex, ey); g.lineTo(ex - 7 * ux - 4 * uy, ey - 7 * uy + 4 * ux);
    g.lineTo(ex - 7 * ux + 4 * uy, ey - 7 * uy - 4 * ux); g.fill();
  }
  g.setLineDash([]);
  for (let k = 0; k < p.ranks; k++) {
    const [x, y] = at(k);
    g.fillStyle = Math.floor(k / p.gpus_per_node) % 2 ? "#E69F00" : "#56B4E9";
    g.beginPath(); g.arc(x, y, dot, 0, 2 * Math.PI); g.fill();
    if (p.ranks <= 32) { g.fillStyle = "#222"; g.font = "11px sans-serif"; g.textAlign = "center"; g.fillText(String(k), x, y + 4); }
  }
}
