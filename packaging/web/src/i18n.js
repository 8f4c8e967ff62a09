// The page's own words in both languages. Chinese uses the course's terms (显存, 单步耗时,
// 流水线阶段 …: resources/translations/zh_CN.json, the desktop app's catalogue). Everything the
// engine says (diagnostics, fixes, walls, uncertainty) comes from the engine in the chosen language.
"use strict";
const WORDS = {
  lesson: ["Lesson", "教学案例"],
  noLesson: ["(none)", "（无）"],
  open: ["Open…", "打开…"],
  importHf: ["Import HF config…", "导入 HF 配置…"],
  commDetails: ["Bytes, algorithm and link of each collective", "各集合通信的字节数、算法与链路"],
  commGroup: ["Group · collective · purpose", "通信组 · 集合通信 · 用途"],
  commAlgorithm: ["Algorithm · link", "算法 · 链路"],
  commBytes: ["Bytes per GPU per step", "每块 GPU 每步字节数"],
  commTime: ["On the link · not overlapped", "链路占用 · 未重叠"],
  save: ["Save…", "保存…"],
  link: ["Copy link", "复制链接"],
  linkCopied: ["Link copied: it opens this picture", "链接已复制：打开即是此画面"],
  model: ["Model", "模型"],
  cluster: ["Cluster", "集群"],
  whatBreaks: ["What breaks", "问题诊断"],
  fixes: ["What would fix it (each evaluated; click to apply)", "修复建议（每项调整均已评估；单击即可应用）"],
  nothingBreaks: ["Nothing: the configuration is valid and fits.", "无 —— 该配置有效且放得下。"],
  noFixes: ["Nothing to fix.", "无需修复。"],
  desktopOnly: ["The CUDA probe, nccl-tests import and trace comparison stay in the desktop app and parascope-cli.",
                "CUDA 探针、nccl-tests 导入和跟踪对比只在桌面版和 parascope-cli 中提供。"],
  stepTime: ["Step time", "单步耗时"],
  wall_memory: ["Memory wall", "显存墙"],
  wall_communication: ["Communication wall", "通信墙"],
  wall_efficiency: ["Efficiency wall", "效率墙"],
  wall_stability: ["Stability wall", "稳定性墙"],
  peak: ["Peak memory", "峰值显存"],
  stage: ["stage", "阶段"],
  fits: ["fits", "放得下"],
  borderline: ["borderline", "临界"],
  oom: ["OUT OF MEMORY", "显存不足（OOM）"],
  weights: ["Weights", "权重"],
  gradients: ["Gradients", "梯度"],
  optimizer: ["Optimizer states", "优化器状态"],
  activations: ["Activations", "激活"],
  other: ["Other", "其他"],
  capacity: ["GPU capacity", "GPU 显存容量"],
  memAxis: ["Memory per GPU (GiB)", "每块 GPU 显存（GiB）"],
  stageAxis: ["Pipeline stage", "流水线阶段"],
  memTitle: ["Memory per pipeline stage", "各流水线阶段的显存"],
  commTitle: ["Communication per step", "每步通信"],
  commAxis: ["Time per step (ms)", "每步时间（ms）"],
  onLink: ["Time on the link", "链路占用时间"],
  exposed: ["Not overlapped", "未重叠通信"],
  timelineTitle: ["Pipeline timeline", "流水线时间线"],
  timeAxis: ["Time within the step (s)", "步内时间（s）"],
  forward: ["Forward", "前向"],
  backward: ["Backward", "反向"],
  comm: ["Communication", "集合通信"],
  optimizerStep: ["Optimizer", "优化器"],
  stepOf: ["Step {0} of {1}", "第 {0} 步，共 {1} 步"],
  exercise: ["Exercise", "练习"],
  colon: [": ", "："],
  predictFirst: ["Predict first: the numbers are hidden until you reveal your estimate.", "先预测：揭晓估计之前，数字都被隐藏。"],
  reveal: ["Reveal", "揭晓"],
  yourEstimate: ["your estimate", "你的估计"],
  typeFirst: ["Type your estimate first: a number.", "请先输入你的估计值（一个数字）。"],
  formula: ["Formula: ", "公式："],
  loadFailed: ["Could not open {0}: {1}", "无法打开 {0}：{1}"],
  engineError: ["The engine refused this scenario:", "引擎拒绝了该场景："],
};

let LANG = "zh";
function t(key, ...args) {
  const w = WORDS[key];
  let s = w ? w[LANG === "zh" ? 1 : 0] : key;
  args.forEach((a, i) => { s = s.replace("{" + i + "}", a); });
  return s;
}
function localized(obj) { return obj ? (LANG === "zh" ? obj.zh || obj.en : obj.en) : ""; }
