// The course in the page: lessons with their steps, exercises (predict, then reveal), the design
// task (hand in a layout, graded against the Advisor and the search), the Advisor's walk with its
// report card, and a class's answers binned for the teacher. Every verdict is the engine's
// (lessons/course_json.h, the same JSON parascope-cli prints); the page only lays it out.
"use strict";

function fillLessons() {
  state.lessons = call("lessons", {}).ok;
  const sel = $("lesson");
  sel.textContent = "";
  sel.add(new Option(t("noLesson"), ""));
  for (const l of state.lessons) sel.add(new Option(localized(l.title), l.id));
  sel.value = state.lesson ? state.lesson.id : "";
}
// The lesson with its texts' numbers put in by the engine (every step evaluated: asked once).
const lessonCache = new Map();
function lessonById(id) {
  if (!state.lessons.some((l) => l.id === id)) return null;
  if (!lessonCache.has(id)) lessonCache.set(id, call("lesson", { id }).ok);
  return lessonCache.get(id);
}
function openLesson(lesson, step) {
  state.lesson = lesson;
  state.step = Math.min(step, lesson.steps.length - 1);
  state.pending = !!lesson.steps[state.step].exercise;
  state.grade = null;
  state.designGrade = null;
  state.scenario = lesson.steps[state.step].scenario;
  renderLesson();
  redraw();
}
function renderLesson() {
  const box = $("lesson-text");
  const l = state.lesson;
  $("step-nav").hidden = !l;
  box.hidden = !l;
  if (!l) state.pending = false;
  $("lesson").value = l ? l.id : "";
  if (!l) return;
  const s = l.steps[state.step];
  $("step-label").textContent = " " + t("stepOf", state.step + 1, l.steps.length) + " ";
  box.innerHTML = "<h3></h3><p class=label></p><div class=text></div>";
  box.querySelector("h3").textContent = localized(l.title);
  box.querySelector(".label").textContent = localized(s.label);
  box.querySelector(".text").textContent = localized(s.text);
  if (s.exercise) renderExercise(box, l, s); // above the text: the question first, in view
  if (s.design) renderDesign(box, l, s);
  document.body.classList.toggle("pending", !!state.pending);
}

// Predict, then reveal (as the app's exercise panel): the numbers stay hidden (blurred) until the
// estimate is in; the engine grades it (grade_exercise) and says which usual mistake it matches.
function renderExercise(box, lesson, step) {
  const ex = document.createElement("div");
  ex.className = "exercise";
  ex.innerHTML = "<p class=prompt></p><input id=estimate inputmode=decimal size=10> <span class=unit></span> " +
                 "<button id=reveal></button><p class=result></p><p class=formula hidden></p>";
  ex.querySelector(".prompt").textContent = t("exercise") + t("colon") + localized(step.exercise.prompt);
  ex.querySelector("#estimate").placeholder = t("yourEstimate");
  ex.querySelector("#reveal").textContent = t("reveal");
  ex.querySelector(".formula").textContent = t("formula") + localized(step.exercise.formula);
  const result = ex.querySelector(".result");
  if (!state.pending) {
    ex.querySelector("#estimate").disabled = true;
    ex.querySelector("#reveal").disabled = true;
    ex.querySelector(".formula").hidden = false;
    if (state.grade) result.textContent = localized(state.grade.feedback);
  } else {
    result.textContent = t("predictFirst");
  }
  ex.querySelector("#reveal").addEventListener("click", () => {
    const answer = Number(ex.querySelector("#estimate").value.trim().replace(",", "."));
    if (!ex.querySelector("#estimate").value.trim() || !Number.isFinite(answer)) return void (result.textContent = t("typeFirst"));
    const g = call("grade_exercise", { lesson: lesson.id, step: state.step, answer });
    if (g.errors) return showErrors(g.errors);
    state.grade = g.ok;
    state.pending = false;
    renderLesson();
  });
  box.insertBefore(ex, box.querySelector(".text"));
}

// ---- The design task ----------------------------------------------------------------------------
// The student moves the knobs, then hands the layout in; the engine grades it wall by wall against
// the Advisor's and the search's layouts on the task's GPUs (their search runs once per task).
function renderDesign(box, lesson, step) {
  const d = document.createElement("div");
  d.className = "design";
  d.innerHTML = "<p class=prompt></p><button id=hand-in></button><div class=grade aria-live=polite></div>";
  d.querySelector(".prompt").textContent = t("designTask") + t("colon") + localized(step.design.prompt);
  d.querySelector("#hand-in").textContent = state.designGrade ? t("handInAgain") : t("handIn");
  if (state.designGrade) showDesignGrade(d.querySelector(".grade"), state.designGrade);
  d.querySelector("#hand-in").addEventListener("click", () => {
    d.querySelector(".grade").textContent = t("grading");
    setTimeout(() => { // let the words above paint: the first hand-in walks the search
      const g = call("grade_design", { lesson: lesson.id, step: state.step, scenario: state.scenario, lang: LANG });
      if (g.errors) return showErrors(g.errors);
      state.designGrade = g.ok;
      renderLesson();
    }, 20);
  });
  box.insertBefore(d, box.querySelector(".text"));
}
const MARK = { pass: "✔", close: "~", fail: "✘" };
function showDesignGrade(box, g) {
  box.textContent = "";
  const add = (tag, text, cls) => {
    const e = document.createElement(tag);
    e.textContent = text;
    if (cls) e.className = cls;
    box.appendChild(e);
    return e;
  };
  add("p", t("yourLayout") + g.report_card.yours.layout);
  const list = add("ul", "");
  for (const c of g.checks) {
    const li = document.createElement("li");
    li.className = "mark-" + c.mark;
    li.textContent = MARK[c.mark] + " " + c.name + t("colon") + c.note;
    list.appendChild(li);
  }
  add("p", g.verdict, "verdict");
  add("p", t("revealed"), "revealed");
  add("p", t("procedureDays", g.report_card.procedure.layout, days(g.procedure_days)));
  if (g.report_card.search) add("p", t("searchDays", g.report_card.search.layout, days(g.search_days)));
  const diff = add("ul", "");
  for (const line of g.report_card.differences) diff.appendChild(document.createElement("li")).textContent = line;
}
const days = (d) => (d === null ? "∞" : d.toFixed(1)); // null: the layout trains nothing

// ---- The Advisor: the course's decision procedure, step by step, and the report card ------------
function openAdvisor() {
  const box = $("advisor-body");
  box.textContent = t("walking");
  $("advisor").showModal();
  setTimeout(() => {
    const a = call("advise", { scenario: state.scenario, lang: LANG });
    if (a.errors) return void (box.textContent = a.errors.map((e) => e.path + ": " + e.message).join("; "));
    state.advice = a.ok;
    renderAdvice(box, a.ok);
  }, 20);
}
const VERDICT = { ok: "verdictOk", changed: "verdictChanged", warn: "verdictWarn" };
function renderAdvice(box, a) {
  box.innerHTML = "<ol class=steps></ol><p class=result></p><p class=comparison></p><table class=card></table>" +
                  "<p class=buttons><button id=apply-procedure></button> <button id=apply-search></button></p>";
  for (const s of a.steps) {
    const li = box.querySelector(".steps").appendChild(document.createElement("li"));
    li.innerHTML = "<b></b> <span class=verdict></span><br><span class=finding></span><br><small></small>";
    li.querySelector("b").textContent = s.title;
    li.querySelector(".verdict").textContent = "[" + t(VERDICT[s.verdict]) + "]";
    li.querySelector(".verdict").className = "verdict " + s.verdict;
    li.querySelector(".finding").textContent = s.finding;
    li.querySelector("small").textContent = t("why") + s.why;
  }
  box.querySelector(".result").textContent = t("adviceResult", a.report_card.procedure.layout, a.step_s.toFixed(2),
                                                a.uncertainty.text) + (a.fits ? "" : " " + t("doesNotFit"));
  box.querySelector(".comparison").textContent = a.comparison;
  renderCard(box.querySelector(".card"), a.report_card);
  const apply = (id, scenario, label) => {
    const b = box.querySelector("#" + id);
    b.hidden = !scenario;
    b.textContent = t(label);
    b.onclick = () => { $("advisor").close(); state.lesson = null; renderLesson(); setScenario(scenario); };
  };
  apply("apply-procedure", a.scenario, "applyProcedure");
  apply("apply-search", a.search_best && a.search_best.scenario, "applySearch");
}
// A row per wall, a column per layout (yours, the procedure's, the search's), then why they differ.
function renderCard(table, card) {
  const cols = [["cardYours", card.yours], ["cardProcedure", card.procedure]];
  if (card.search) cols.push(["cardSearch", card.search]);
  const pct = (x) => (x * 100).toFixed(1) + " %";
  const rows = [["cardLayout", (m) => m.layout], ["cardHeadroom", (m) => pct(m.memory_headroom)],
                ["cardExposed", (m) => pct(m.exposed_comm)], ["cardBubble", (m) => pct(m.bubble_imbalance)],
                ["cardStability", (m) => pct(m.stability)],
                // The band as the engine writes it (bandText's short form, "±6.9 %"), as in the summary.
                ["stepTime", (m) => m.step_s.toFixed(2) + " s (±" + pct(m.step_band.relative) + ")"]];
  table.textContent = "";
  const head = table.insertRow();
  head.className = "head";
  head.insertCell().textContent = t("reportCard");
  for (const [k] of cols) head.insertCell().textContent = t(k);
  for (const [k, f] of rows) {
    const r = table.insertRow();
    r.insertCell().textContent = t(k);
    for (const [, m] of cols) r.insertCell().textContent = f(m);
  }
  const why = table.createTFoot().insertRow().insertCell();
  why.colSpan = cols.length + 1;
  why.appendChild(document.createElement("ul"));
  for (const d of card.differences) why.firstChild.appendChild(document.createElement("li")).textContent = d;
}

// ---- A class's answers, for the teacher ---------------------------------------------------------
// The CSVs the desktop app's File → Export exercise results writes (one per student, or joined).
async function openClassAnswers(fileList) {
  const files = [];
  for (const f of fileList) files.push({ file: f.name, text: await f.text() });
  const box = $("class-body");
  box.textContent = "";
  $("class").showModal();
  const a = call("class_answers", { files, lang: LANG });
  if (a.errors) {
    const e = box.appendChild(document.createElement("p"));
    e.className = "errors";
    e.textContent = a.errors.map((x) => x.path + ": " + x.message).join("\n");
    return;
  }
  for (const x of a.ok.exercises) {
    const h = box.appendChild(document.createElement("h4"));
    const title = state.lessons.find((l) => l.id === x.lesson);
    h.textContent = t("classExercise", title ? localized(title.title) : x.lesson, x.step, x.quantity,
                      +x.engine.toPrecision(4), x.unit, x.answers.length);
    const most = Math.max(1, ...x.bins.map((b) => b.count));
    for (const b of x.bins.filter((b) => b.count > 0)) {
      const row = box.appendChild(document.createElement("div"));
      row.className = "bin";
      row.innerHTML = "<span class=bar></span><b></b> <span class=label></span><small></small>";
      row.querySelector(".bar").style.width = (120 * b.count / most).toFixed(0) + "px";
      row.querySelector("b").textContent = b.count;
      row.querySelector(".label").textContent = b.label;
      row.querySelector("small").textContent = b.typical && b.typical !== b.label ? t("typically") + b.typical : "";
    }
  }
  if (!a.ok.exercises.length) box.textContent = t("noAnswers");
}
function wireCourse() {
  $("advisor-open").addEventListener("click", openAdvisor);
  $("class-open").addEventListener("click", () => $("class-file").click());
  $("class-file").addEventListener("change", (e) => {
    if (e.target.files.length) openClassAnswers([...e.target.files]);
    e.target.value = "";
  });
  document.querySelectorAll("dialog .close").forEach((b) => b.addEventListener("click", () => b.closest("dialog").close()));
}
