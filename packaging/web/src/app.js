// The page: knobs in, the engine's JSON out, three charts and the engine's own words. State is
// the scenario (parascope.scenario/1, as the desktop app saves it) or a lesson and its step; the
// URL's hash holds it, so a link opens the same picture.
"use strict";
let Engine = null;
const state = { scenario: null, lesson: null, step: 0, report: null, gantt: null, presets: null, lessons: [] };
const knobRows = new Map(); // path → { row, input, value, knob }
const $ = (id) => document.getElementById(id);

function call(method, request) {
  return JSON.parse(Engine.ccall("parascope_call", "string", ["string", "string"], [method, JSON.stringify(request)]));
}
// A knob move's answer with the Gantt's ops read straight from the module's memory (six numbers
// per op, as the JSON list would have them): 25,000 numbers are not written and parsed as text.
function callDrawing(method, request) {
  const answer = call(method, Object.assign({ ops: "memory" }, request));
  if (answer.ok) {
    const at = Engine._parascope_gantt_ops() / 8, n = Engine._parascope_gantt_ops_count();
    answer.ok.gantt.ops = Engine.HEAPF64.slice(at, at + n);
  }
  return answer;
}

// ---- The URL: #s=<scenario, base64url> or #lesson=ID&step=N ------------------------------------
function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  bytes.forEach((b) => { bin += String.fromCharCode(b); });
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function fromBase64Url(text) {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}
// A lesson step as the lesson has it is its name; a step whose knobs were moved carries its scenario.
function stateHash() {
  const lang = "lang=" + LANG;
  const lesson = state.lesson ? "lesson=" + encodeURIComponent(state.lesson.id) + "&step=" + (state.step + 1) + "&" : "";
  if (state.lesson && state.scenario === state.lesson.steps[state.step].scenario) return "#" + lesson + lang;
  return "#" + lesson + "s=" + toBase64Url(JSON.stringify(state.scenario)) + "&" + lang;
}
function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("lang")) LANG = params.get("lang") === "en" ? "en" : "zh";
  const lesson = params.get("lesson") && lessonById(params.get("lesson"));
  if (lesson) openLesson(lesson, Math.max(0, (parseInt(params.get("step"), 10) || 1) - 1));
  if (params.get("s")) {
    try { return setScenario(JSON.parse(fromBase64Url(params.get("s")))); }
    catch (e) { showErrors([{ path: "#s", message: String(e) }]); }
  }
  if (!lesson) setScenario(DEFAULT_SCENARIO);
}

// ---- Knobs --------------------------------------------------------------------------------------
function knobGroup(path) {
  if (path.startsWith("faults.")) return "faults";
  if (path.startsWith("network.")) return "network";
  return "main";
}
function buildKnobs(list) {
  const box = $("knobs");
  box.textContent = "";
  knobRows.clear();
  const groups = { main: box };
  for (const g of ["network", "faults"]) {
    const d = document.createElement("details");
    d.innerHTML = "<summary></summary>";
    d.querySelector("summary").textContent = g === "faults" ? "faults.*" : "network.*";
    box.appendChild(d);
    groups[g] = d;
  }
  for (const k of list) {
    const row = document.createElement("div");
    row.className = "knob";
    row.dataset.path = k.path;
    row.innerHTML = '<div class="name"><span class="label"></span><span class="value"></span></div>';
    const input = k.value_names ? document.createElement("select") : document.createElement("input");
    if (!k.value_names) input.type = "range";
    input.setAttribute("aria-label", k.path);
    input.addEventListener(k.value_names ? "change" : "input", () => onKnob(k.path));
    row.appendChild(input);
    groups[knobGroup(k.path)].appendChild(row);
    knobRows.set(k.path, { row, input, value: row.querySelector(".value"), label: row.querySelector(".label"), knob: k });
  }
}
function updateKnobs(table) {
  if (knobRows.size !== table.length) buildKnobs(table);
  for (const k of table) {
    const r = knobRows.get(k.path);
    r.knob = k;
    // An enum knob's label lists its values for the CLI ("Recompute (0 none, 1 selective, 2 full)"):
    // the page shows the names in the list itself.
    r.label.textContent = k.value_names ? localized(k.label).replace(/\s*[（(][^（()）]*[)）]$/, "") : localized(k.label);
    r.label.title = k.rule;
    if (k.value_names) {
      if (r.input.options.length !== k.offered.length || [...r.input.options].some((o, i) => +o.value !== k.offered[i])) {
        r.input.textContent = "";
        for (const v of k.offered) r.input.add(new Option(k.value_names[String(v)], String(v)));
      }
      r.input.value = String(k.value);
      r.value.textContent = "";
    } else {
      r.input.min = 0;
      r.input.max = k.offered.length - 1;
      r.input.value = Math.max(0, k.offered.indexOf(k.value));
      r.value.textContent = String(k.value);
    }
  }
}
function onKnob(path) {
  const r = knobRows.get(path);
  const value = r.knob.value_names ? +r.input.value : r.knob.offered[+r.input.value];
  applyChanges([path + "=" + value]);
}
// A knob move: one engine call (move) sets, evaluates and returns the new knob table.
function applyChanges(assignments) {
  const answer = callDrawing("move", { scenario: state.scenario, set: assignments, lang: LANG });
  if (answer.errors) return showErrors(answer.errors);
  state.scenario = answer.ok.scenario;
  show(answer.ok);
}

// An evaluated fix: its changes applied as the app applies them (not as knob moves: SP, the CPU
// offload or FP8 activations are no knobs).
function applyAdvice(changes) {
  const answer = callDrawing("move", { scenario: state.scenario, set: [], changes, lang: LANG });
  if (answer.errors) return showErrors(answer.errors);
  state.scenario = answer.ok.scenario;
  show(answer.ok);
}

// ---- Redraw -------------------------------------------------------------------------------------
function setScenario(scenario) {
  state.scenario = scenario;
  redraw();
}
function contextLine() {
  const r = state.report;
  return r ? r.scenario + " · " + r.gpus + " GPU · " + t("stepTime") + " " + r.time.step_s.toFixed(2) + " s · " +
             t("peak") + " " + (r.memory.peak_bytes / GIB).toFixed(1) + " GiB" : "";
}
function redraw() {
  const explored = callDrawing("explore", { scenario: state.scenario, lang: LANG });
  if (explored.errors) return showErrors(explored.errors);
  explored.ok.knobs = call("knobs", { scenario: state.scenario }).ok;
  show(explored.ok);
}
function show(answer) {
  showErrors([]);
  state.report = answer.report;
  state.gantt = answer.gantt;
  updateKnobs(answer.knobs);
  selectPresets();
  renderSummary();
  LIVE.memory.update(state.report);
  LIVE.comm.update(state.report);
  LIVE.timeline.update(state.gantt);
  renderCommTable();
  scheduleAdvice(); // and the URL, once the knobs rest
}
function renderSummary() {
  const r = state.report;
  const verdict = r.memory.verdict === "fits" ? "fits" : r.memory.verdict === "borderline" ? "borderline" : "oom";
  const s = $("summary");
  s.innerHTML = '<span data-testid="step"></span> · <span data-testid="tokens"></span> · MFU <span data-testid="mfu"></span>' +
                ' · <span data-testid="peak"></span> <span data-testid="verdict"></span>';
  const step = s.querySelector("[data-testid=step]");
  step.textContent = t("stepTime") + " " + r.time.step_s.toFixed(2) + " s (" + r.uncertainty.text + ")";
  step.dataset.value = r.time.step_s;
  s.querySelector("[data-testid=tokens]").textContent = Math.round(r.throughput.tokens_per_s) + " tokens/s";
  s.querySelector("[data-testid=mfu]").textContent = (r.throughput.mfu * 100).toFixed(1) + " %";
  const peak = s.querySelector("[data-testid=peak]");
  peak.textContent = t("peak") + " " + (r.memory.peak_bytes / GIB).toFixed(1) + " / " +
                     (r.memory.capacity_bytes / GIB).toFixed(1) + " GiB (" + t("stage") + " " + r.memory.peak_stage + ")";
  peak.dataset.value = r.memory.peak_bytes;
  const v = s.querySelector("[data-testid=verdict]");
  v.textContent = t(verdict);
  v.className = verdict;
  const walls = $("walls");
  walls.textContent = "";
  for (const [key, w] of Object.entries(r.walls)) {
    const d = document.createElement("div");
    d.className = "wall " + (w.verdict === "over" ? "bad" : w.verdict === "near" ? "near" : "");
    d.innerHTML = "<b></b> <span></span>";
    d.querySelector("b").textContent = t("wall_" + key);
    d.querySelector("span").textContent = w["explanation_" + LANG] || w.explanation;
    walls.appendChild(d);
  }
  const list = $("diagnostics");
  list.textContent = "";
  for (const d of r.diagnostics) {
    const li = document.createElement("li");
    li.className = d.severity;
    li.textContent = d["message_" + LANG] + (d["suggestion_" + LANG] ? " → " + d["suggestion_" + LANG] : "");
    list.appendChild(li);
  }
  if (!r.diagnostics.length) list.innerHTML = "<li></li>", list.firstChild.textContent = t("nothingBreaks");
}

// What each group sends, by which algorithm over which link (the report's communication table).
// The engine's rule (core/estimate/display_names.cpp formatBytes), so the page and the app write
// a collective's bytes the same way: MiB whole, GiB to 0.1, TiB to 0.01.
function formatBytes(bytes) {
  const gib = bytes / 1024 ** 3;
  if (gib >= 1024) return (gib / 1024).toFixed(2) + " TiB";
  if (gib >= 1) return gib.toFixed(1) + " GiB";
  return (bytes / 1024 ** 2).toFixed(0) + " MiB";
}
function renderCommTable() {
  const table = $("comm-table");
  table.textContent = "";
  const head = table.insertRow();
  for (const k of ["commGroup", "commAlgorithm", "commBytes", "commTime"]) head.insertCell().textContent = t(k);
  head.className = "head";
  state.report.communication.forEach((c, i) => {
    const row = table.insertRow();
    row.insertCell().textContent = c.group.toUpperCase() + " " + c.collective + " · " + c.purpose;
    row.insertCell().textContent = c.algorithm + " · " + c.link;
    row.insertCell().textContent = formatBytes(c.bytes_per_gpu_per_step);
    row.insertCell().textContent = seconds(c.time_s) + " · " + seconds(c.exposed_s); // collective.js: s, ms or µs
    if (OPS.includes(c.collective)) { // step by step in the explainer, at this size and group
      row.className = "explain";
      row.title = t("explainRow");
      row.addEventListener("click", () => explainCommEntry(i));
    }
  });
}

// The evaluated fixes try many changed scenarios: after the charts, once the knobs rest.
let adviceTimer = 0;
function scheduleAdvice() {
  clearTimeout(adviceTimer);
  adviceTimer = setTimeout(() => {
    history.replaceState(null, "", stateHash());
    const answer = call("evaluate", { scenario: state.scenario, lang: LANG });
    const list = $("advice");
    list.textContent = "";
    const items = (answer.ok && answer.ok.advice) || [];
    for (const a of items) {
      const li = document.createElement("li");
      li.textContent = a["message_" + LANG];
      li.addEventListener("click", () => applyAdvice(a.changes));
      list.appendChild(li);
    }
    if (!items.length) list.innerHTML = "<li></li>", list.firstChild.textContent = t("noFixes");
  }, 150);
}
function showErrors(errors) {
  const box = $("errors");
  box.hidden = !errors.length;
  box.textContent = errors.length ? t("engineError") + " " + errors.map((e) => (e.path ? e.path + ": " : "") + e.message).join("; ") : "";
}

// ---- Presets and lessons ------------------------------------------------------------------------
function fillPresets() {
  state.presets = call("presets", {}).ok;
  for (const [id, kind] of [["model", "models"], ["cluster", "clusters"]]) {
    const sel = $(id);
    for (const p of state.presets[kind]) sel.add(new Option(p.name, p.id));
    sel.addEventListener("change", () => {
      if (sel.value === "__custom") return;
      const sc = Object.assign({}, state.scenario, { [id]: sel.value });
      setScenario(sc);
    });
  }
}
// A preset by its id; a model or cluster written out in the scenario (an imported config) as
// one more entry, by its name.
function selectPresets() {
  for (const id of ["model", "cluster"]) {
    const v = state.scenario[id], sel = $(id);
    let custom = sel.querySelector("option[data-custom]");
    if (typeof v !== "string") {
      if (!custom) { custom = new Option("", "__custom"); custom.dataset.custom = "1"; sel.add(custom, 0); }
      custom.textContent = (v && v.name) || "custom";
    } else if (custom) custom.remove();
    sel.value = typeof v === "string" ? v : "__custom";
  }
}
// ---- Files, link, export, language --------------------------------------------------------------
function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
function exportChart(which, fmt) {
  const option = which === "memory" ? memoryOption(state.report, contextLine())
               : which === "comm" ? commOption(state.report, contextLine()) : timelineOption(state.gantt, contextLine(), 720);
  const div = document.createElement("div");
  div.style.cssText = "position:absolute;left:-10000px;width:1280px;height:720px";
  document.body.appendChild(div);
  const chart = echarts.init(div, null, { renderer: fmt === "svg" ? "svg" : "canvas" });
  chart.setOption(Object.assign(option, { backgroundColor: "#fff" }));
  const name = "parascope-" + which + "." + fmt;
  if (fmt === "svg") download(name, new Blob([chart.renderToSVGString()], { type: "image/svg+xml" }));
  else fetch(chart.getDataURL({ type: "png", pixelRatio: 2, backgroundColor: "#fff" })).then((r) => r.blob()).then((b) => download(name, b));
  chart.dispose();
  div.remove();
}
function wireButtons() {
  $("save").addEventListener("click", () =>
    download((state.scenario.name || "scenario").replace(/[^\w.-]+/g, "_") + ".parascope.json",
             new Blob([JSON.stringify(state.scenario, null, 2) + "\n"], { type: "application/json" })));
  $("open").addEventListener("click", () => $("open-file").click());
  $("open-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    try {
      const scenario = JSON.parse(await file.text());
      const check = call("knobs", { scenario });
      if (check.errors) return showErrors(check.errors.map((x) => ({ path: file.name + ": " + x.path, message: x.message })));
      state.lesson = null;
      renderLesson();
      setScenario(scenario);
    } catch (err) { showErrors([{ path: file.name, message: String(err) }]); }
    e.target.value = "";
  });
  // A Hugging Face config.json: the engine reads it (import_hf) and the scenario takes the model.
  $("import-hf").addEventListener("click", () => $("import-hf-file").click());
  $("import-hf-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    e.target.value = "";
    if (!file) return;
    const answer = call("import_hf", { config: await file.text(), file: file.name });
    if (answer.errors) return showErrors(answer.errors.map((x) => ({ path: file.name + (x.path ? ": " + x.path : ""), message: x.message })));
    setScenario(Object.assign({}, state.scenario, { model: answer.ok.model }));
  });
  $("link").addEventListener("click", () => {
    navigator.clipboard?.writeText(location.href.split("#")[0] + stateHash()).then(() => { $("link").title = t("linkCopied"); });
  });
  $("lang").addEventListener("change", () => { LANG = $("lang").value; applyLanguage(); makeLiveCharts(); redraw(); });
  $("lesson").addEventListener("change", () => {
    const l = lessonById($("lesson").value);
    if (l) return openLesson(l, 0);
    state.lesson = null;
    renderLesson();
    redraw();
  });
  $("step-prev").addEventListener("click", () => state.lesson && state.step > 0 && openLesson(state.lesson, state.step - 1));
  $("step-next").addEventListener("click", () => state.lesson && openLesson(state.lesson, state.step + 1));
  document.querySelectorAll("[data-export]").forEach((b) => b.addEventListener("click", () => exportChart(b.dataset.export, b.dataset.fmt)));
  window.addEventListener("resize", resizeLiveCharts);
}
function applyLanguage() {
  document.documentElement.lang = LANG === "zh" ? "zh-CN" : "en";
  $("lang").value = LANG;
  document.querySelectorAll("[data-i18n]").forEach((e) => { e.textContent = t(e.dataset.i18n); });
  fillLessons();
  renderLesson();
}

createParaScope().then((module) => {
  Engine = module;
  fillPresets();
  state.lessons = call("lessons", {}).ok;
  wireButtons();
  wireCourse();
  $("collective-open").addEventListener("click", openExplainer);
  const hashLang = new URLSearchParams(location.hash.slice(1)).get("lang");
  if (hashLang) LANG = hashLang === "en" ? "en" : "zh";
  makeLiveCharts();
  readHash();
  applyLanguage();
  resizeLiveCharts(); // the columns have their widths now
  document.body.dataset.ready = "1";
});
