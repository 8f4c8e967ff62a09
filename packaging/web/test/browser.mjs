// The web edition in a real browser (Debian's chromium, headless, driven by playwright-core):
//   node browser.mjs OUT EXPECTED.json SHOTS_DIR HF_CONFIG.json CLASS.csv
// EXPECTED.json: parascope-cli's answers {"default", "pp16", "hf", "advise", "class"}
// (packaging/web/test.sh makes it; "hf": the default scenario with HF_CONFIG.json's model,
// imported by the CLI; "advise": the Advisor on the default scenario; "class": CLASS.csv binned).
// Checks that the page opened from file:// shows the native engine's step time and peak memory,
// that moving the PP knob shows the native numbers for PP 16, that a lesson link opens its step,
// that a saved scenario reopens as it was saved, that the Advisor, the collective explainer, the
// design task and the class's answers agree with the CLI and the engine's communication table;
// takes screenshots at 1280×720 and 1024×768 in zh and en, and reports the redraw benchmark
// (slider → every chart drawn).
import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [outDir, expectedFile, shotsDir, hfConfig, classCsv] = process.argv.slice(2);
const expected = JSON.parse(fs.readFileSync(expectedFile, "utf8"));
const page_url = pathToFileURL(path.resolve(outDir, "index.html")).href;
let failures = 0;
function check(ok, what) {
  console.log((ok ? "PASS " : "FAIL ") + what);
  if (!ok) failures++;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--font-render-hinting=none"],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, acceptDownloads: true });
const page = await context.newPage();
page.on("pageerror", (e) => check(false, "no script error: " + e.message));

async function open(hash = "") {
  await page.goto("about:blank"); // a new document each time, not a jump within the page
  await page.goto(page_url + hash);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });
}
async function shown() {
  return page.evaluate(() => ({
    step: Number(document.querySelector("[data-testid=step]").dataset.value),
    peak: Number(document.querySelector("[data-testid=peak]").dataset.value),
    verdict: document.querySelector("[data-testid=verdict]").textContent,
  }));
}
function sameAsNative(got, report, what) {
  check(got.step === report.time.step_s, `${what}: step time ${got.step} = parascope-cli's ${report.time.step_s}`);
  check(got.peak === report.memory.peak_bytes, `${what}: peak memory ${got.peak} = parascope-cli's ${report.memory.peak_bytes}`);
}

// 1. The default scenario from file://.
await open();
sameAsNative(await shown(), expected.default, "default scenario");

// 2. The PP knob to 16, as a student drags it.
async function setKnob(knobPath, value) {
  await page.evaluate(([p, v]) => {
    const r = knobRows.get(p);
    r.input.value = String(r.knob.offered.indexOf(v));
    r.input.dispatchEvent(new Event("input"));
  }, [knobPath, value]);
}
await setKnob("parallel.pp", 16);
sameAsNative(await shown(), expected.pp16, "PP 16");
await page.waitForFunction(() => location.hash === stateHash()); // the URL follows once the knobs rest
const hash16 = await page.evaluate(() => location.hash);
await open(hash16);
sameAsNative(await shown(), expected.pp16, "PP 16 reopened from its link");

// 3. Save, then open the saved file: the same picture.
const download = page.waitForEvent("download");
await page.click("#save");
const saved = path.join(shotsDir, "saved.parascope.json");
await (await download).saveAs(saved);
await open();
await page.setInputFiles("#open-file", saved);
await page.waitForFunction(() => document.querySelector("#model").value !== "" && location.hash.length > 0);
sameAsNative(await shown(), expected.pp16, "the saved PP 16 scenario reopened");

// A Hugging Face config through Import HF config…: the CLI's import, evaluated, to the digit.
await open();
await page.setInputFiles("#import-hf-file", hfConfig);
await page.waitForFunction(() => document.querySelector("#model").value === "__custom");
sameAsNative(await shown(), expected.hf, "imported " + path.basename(hfConfig));

// Every chart exports as PNG and SVG (ECharts, with the context line).
await open();
for (const which of ["memory", "comm", "timeline"]) {
  for (const fmt of ["png", "svg"]) {
    const got = page.waitForEvent("download");
    await page.click(`[data-export=${which}][data-fmt=${fmt}]`);
    const file = path.join(shotsDir, `export-${which}.${fmt}`);
    await (await got).saveAs(file);
    const text = fmt === "svg" ? fs.readFileSync(file, "utf8") : "";
    check(fs.statSync(file).size > 5000 && (fmt === "png" || text.includes("Llama-2 70B")),
          `${which} exported as ${fmt.toUpperCase()} (${fs.statSync(file).size} bytes${fmt === "svg" ? ", with the context line" : ""})`);
  }
}

// 4. A lesson link opens its step.
await open("#lesson=4-what-breaks-pp16&step=2&lang=zh");
const lesson = await page.evaluate(() => ({ id: state.lesson && state.lesson.id, step: state.step,
                                            text: document.querySelector("#lesson-text").textContent }));
check(lesson.id === "4-what-breaks-pp16" && lesson.step === 1 && lesson.text.length > 20, "lesson link opens lesson 4 step 2");
check(!lesson.text.includes("{{"), "the lesson's text has the engine's numbers put in");

// An exercise: the numbers hidden until the estimate is revealed, then the engine's grade.
await open("#lesson=2-llama70b-512&step=1&lang=en");
check(await page.evaluate(() => document.body.classList.contains("pending")), "exercise step: numbers hidden before the estimate");
await page.fill("#estimate", "10");
await page.click("#reveal");
const graded = await page.evaluate(() => ({ pending: document.body.classList.contains("pending"),
                                            result: document.querySelector(".exercise .result").textContent }));
check(!graded.pending && graded.result.startsWith("Right"), "exercise revealed and graded: " + graded.result);

// Every step of every lesson draws without a script error (the page's error handler above).
const steps = await page.evaluate(() => {
  let n = 0;
  for (const entry of state.lessons) {
    const l = lessonById(entry.id);
    for (let i = 0; i < l.steps.length; i++, n++) openLesson(l, i);
  }
  return n;
});
check(steps > 30, `every lesson step drawn (${steps})`);

// The Advisor: the procedure's layout and step time as parascope-cli advise prints them; applying
// it shows that step time in the summary.
await open("#lang=en");
await page.click("#advisor-open");
await page.waitForSelector("#advisor table.card tr");
const advice = await page.evaluate(() => ({ step: state.advice.step_s, layout: state.advice.report_card.procedure.layout,
                                            text: document.querySelector("#advisor-body").textContent }));
check(advice.step === expected.advise.step_s && advice.layout === expected.advise.report_card.procedure.layout &&
      advice.text.includes(expected.advise.report_card.procedure.layout),
      `Advisor: ${advice.layout}, ${advice.step} s = parascope-cli advise`);
// Your layout's band in the report card is the one the summary shows for the same step.
const bands = await page.evaluate(() => {
  const band = (text) => (text.match(/±[0-9.]+ %/) || [""])[0];
  const row = [...document.querySelectorAll("#advisor table.card tr")].find((r) => r.cells[0].textContent === t("stepTime"));
  return { card: band(row.cells[1].textContent),
           summary: band(document.querySelector("[data-testid=step]").textContent) };
});
check(bands.card !== "" && bands.card === bands.summary, `report card's band ${bands.card} = the summary's ${bands.summary}`);
await page.click("#apply-procedure");
check((await shown()).step === expected.advise.step_s, "the procedure's layout applied: its step time in the summary");

// An evaluated fix whose change is no knob (Llama-2 7B on one A100: the optimizer states to the
// CPU's memory) applies as the app applies it; sent as knob moves it failed ("no knob").
await open("#lang=en");
await page.evaluate((s) => setScenario(s), { schema: "parascope.scenario/1", model: "llama2-7b", cluster: "dgx-a100-80g",
  parallel: { tp: 1, pp: 1, dp: 1 }, training: { seq_len: 2048, micro_batch: 1, global_batch: 1, recompute: "full" } });
await page.waitForFunction(() => (document.querySelector("#advice li") || {}).textContent?.includes("offloaded"));
await page.evaluate(() => document.querySelector("#advice li").click());
const fixed = await page.evaluate(() => ({ offload: state.scenario.parallel.offload, error: !$("errors").hidden }));
const afterFix = await shown();
check(fixed.offload === "optimizer" && !fixed.error && afterFix.peak < 80 * 2 ** 30,
      `a fix that is no knob applied: offload ${fixed.offload}, peak ${(afterFix.peak / 2 ** 30).toFixed(1)} GiB`);
// Changes are read back as a scenario file is: TP 0 is an error with its path, not a division by zero.
const refused = await page.evaluate(() => call("move", { scenario: state.scenario, set: [], changes: { "parallel.tp": 0 }, lang: "en" }));
check(!!refused.errors && refused.errors.some((e) => e.path.includes("parallel.tp")),
      `a change out of range refused: ${JSON.stringify(refused.errors)}`);

// The collective explainer opened from each row of the communication table: the engine's time
// per call of that row (time ÷ calls per step), on the scenario's cluster and node layout.
await open("#lang=en");
const rows = await page.evaluate(() => state.report.communication.map((c, i) => ({ i, c }))
  .filter(({ c }) => OPS.includes(c.collective)));
for (const { i, c } of rows) {
  await page.evaluate((k) => { document.querySelector("details:has(#comm-table)").open = true;
                                document.querySelectorAll("#comm-table tr")[k + 1].click(); }, i);
  const plan = await page.evaluate(() => explainer.plan);
  const perCall = c.time_s / c.calls_per_step;
  // The engine plays the row as it charged it (its exact bytes per call, group and algorithm):
  // the same time, to rounding (well under what the one byte the table rounds away would take).
  check(Math.abs(plan.engine_time_s - perCall) <= 1e-9 * perCall && plan.steps.length > 0,
        `explainer on ${c.group.toUpperCase()} ${c.collective}: ${plan.engine_time_s} s = the table's ${perCall} s per call`);
  await page.evaluate(() => document.querySelector("#collective").close());
}

// The design task (lesson 15): handed in as the task sets it (DP 1,024 alone), it is out of
// memory; the grade reveals the Advisor's layout, the one parascope-cli advise gives the task.
await open("#lesson=15-capstone-1024-a100&step=1&lang=en");
await page.click("#hand-in");
await page.waitForSelector(".design .verdict", { timeout: 60000 });
const grade = await page.evaluate(() => state.designGrade);
check(grade.checks.length === 6 && grade.checks.find((c) => c.id === "memory").mark === "fail" && !grade.passed,
      "design task graded: " + grade.verdict);

// A class's answers: the page bins them as parascope-cli class-answers does.
await open("#lang=en");
await page.setInputFiles("#class-file", classCsv);
await page.waitForSelector("#class[open] h4");
const binned = await page.evaluate(() => [...document.querySelectorAll("#class-body h4")].length);
const counts = await page.evaluate(() => [...document.querySelectorAll("#class-body .bin b")].map((b) => +b.textContent));
const cliCounts = expected.class.exercises.flatMap((x) => x.bins.map((b) => b.count).filter((n) => n > 0));
check(binned === expected.class.exercises.length && JSON.stringify(counts) === JSON.stringify(cliCounts),
      `class answers: ${binned} exercises, bins ${counts.join(",")} = parascope-cli class-answers`);

// 5. Screenshots, both languages and both projector sizes: the page, then each dialog.
for (const lang of ["zh", "en"]) {
  for (const [w, h] of [[1280, 720], [1024, 768]]) {
    await page.setViewportSize({ width: w, height: h });
    await open("#lang=" + lang);
    await page.evaluate(() => resizeLiveCharts());
    await page.screenshot({ path: path.join(shotsDir, `web-${lang}-${w}x${h}.png`) });
    const shot = (name) => page.screenshot({ path: path.join(shotsDir, `web-${name}-${lang}-${w}x${h}.png`) });
    await page.click("#advisor-open");
    await page.waitForSelector("#advisor table.card tr");
    await shot("advisor");
    await page.evaluate(() => document.querySelector("#advisor").close());
    await page.evaluate(() => { document.querySelector("details:has(#comm-table)").open = true;
                                document.querySelectorAll("#comm-table tr.explain")[2].click(); });
    await page.evaluate(() => showCollectiveStep(1));
    await shot("collective");
    await page.evaluate(() => document.querySelector("#collective").close());
    await page.setInputFiles("#class-file", classCsv);
    await page.waitForSelector("#class[open] h4");
    await shot("class");
    await open(`#lesson=15-capstone-1024-a100&step=1&lang=${lang}`);
    await page.click("#hand-in");
    await page.waitForSelector(".design .verdict", { timeout: 60000 });
    await shot("design");
  }
}

// 6. Redraw benchmark: PP moved back and forth, each move until every chart is painted (uPlot
// paints in a microtask after setData: awaiting one after the move waits for it).
await open();
const times = await page.evaluate(async () => {
  const r = knobRows.get("parallel.pp");
  const out = [];
  for (let i = 0; i < 41; i++) {
    const t0 = performance.now();
    r.input.value = String(i % 2 ? r.knob.offered.indexOf(16) : r.knob.offered.indexOf(8));
    r.input.dispatchEvent(new Event("input"));
    await Promise.resolve();
    out.push(performance.now() - t0);
  }
  return out.slice(1);
});
const engineTimes = await page.evaluate(() => {
  const out = [];
  for (let i = 0; i < 41; i++) {
    const t0 = performance.now();
    callDrawing("explore", { scenario: state.scenario, lang: LANG });
    out.push(performance.now() - t0);
  }
  return out.slice(1);
});
const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
console.log(`redraw benchmark (slider → all charts, ${times.length} moves): median ${median(times).toFixed(1)} ms, ` +
            `max ${times[times.length - 1].toFixed(1)} ms; of it the engine (explore): median ${median(engineTimes).toFixed(1)} ms`);

await browser.close();
console.log(failures ? `${failures} check(s) failed` : "all browser checks passed");
process.exit(failures ? 1 : 0);
