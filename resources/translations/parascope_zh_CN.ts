<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>About</name>
    <message>
        <source>git revision %1</source>
        <translation>git 修订 %1</translation>
    </message>
    <message>
        <source>not built from git</source>
        <translation>非 git 构建</translation>
    </message>
    <message>
        <source>An explorer for parallel LLM training: memory per pipeline stage, communication per collective, the pipeline timeline and what breaks.</source>
        <translation>大模型并行训练探索器：各流水线阶段的显存、每种集合通信的开销、流水线时间线，以及哪里会出问题。</translation>
    </message>
    <message>
        <source>Qt %1 (built with %2), QCustomPlot %3, nlohmann/json %4.%5.%6</source>
        <translation>Qt %1（编译时 %2）、QCustomPlot %3、nlohmann/json %4.%5.%6</translation>
    </message>
    <message>
        <source>Licensed under the GNU General Public License, version 3 or later.</source>
        <translation>依据 GNU 通用公共许可证第 3 版或更新版本授权。</translation>
    </message>
    <message>
        <source>About ParaScope</source>
        <translation>关于 ParaScope</translation>
    </message>
</context>
<context>
    <name>ChartExport</name>
    <message>
        <source>folder %1 does not exist</source>
        <translation>文件夹 %1 不存在</translation>
    </message>
    <message>
        <source>the SVG painter could not start</source>
        <translation>SVG 绘制器无法启动</translation>
    </message>
    <message>
        <source>rendering the %1 failed</source>
        <translation>渲染 %1 失败</translation>
    </message>
    <message>
        <source>size %1×%2 is out of range (%3–%4 pixels a side)</source>
        <translation>尺寸 %1×%2 超出范围（每边 %3–%4 像素）</translation>
    </message>
    <message>
        <source>scale %1 is out of range (1–3)</source>
        <translation>缩放 %1 超出范围（1–3）</translation>
    </message>
    <message>
        <source>%1×%2 at scale %3 is %4 megapixels, over the %5-megapixel budget (e.g. 3840×2160 at 2×, or 1920×1080 at 3×)</source>
        <translation>%1×%2 在 %3 倍缩放下为 %4 百万像素，超过 %5 百万像素的上限（例如 3840×2160 的 2 倍，或 1920×1080 的 3 倍）</translation>
    </message>
    <message>
        <source>the PDF painter could not start</source>
        <translation>PDF 绘制器无法启动</translation>
    </message>
    <message>
        <source>cannot write .%1 files: use .png, .svg or .pdf</source>
        <translation>无法写入 .%1 文件：请使用 .png、.svg 或 .pdf</translation>
    </message>
    <message>
        <source>writing the SVG&apos;s fonts failed: %1</source>
        <translation>写入 SVG 的字体失败：%1</translation>
    </message>
</context>
<context>
    <name>CollectiveChart</name>
    <message>
        <source>%1 GPUs are too many to draw one by one: the figures below are exact.</source>
        <translation>%1 块 GPU 太多，无法逐块画出；下面的数字是精确的。</translation>
    </message>
    <message>
        <source>a cell: the part received from that GPU</source>
        <translation>一格：从那块 GPU 收到的部分</translation>
    </message>
    <message>
        <source>a cell: a piece of the buffer; darker: summed over more GPUs</source>
        <translation>一格：缓冲区的一块；颜色越深，归约的 GPU 越多</translation>
    </message>
    <message>
        <source>a cell: a piece of the buffer</source>
        <translation>一格：缓冲区的一块</translation>
    </message>
    <message>
        <source>Node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <source>↑ sent so far</source>
        <translation>↑ 至今已发送</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>1920 × 1080 (16:9)</source>
        <translation>1920 × 1080 (16:9)</translation>
    </message>
    <message>
        <source>1280 × 720 (16:9)</source>
        <translation>1280 × 720 (16:9)</translation>
    </message>
    <message>
        <source>1024 × 768 (4:3)</source>
        <translation>1024 × 768 (4:3)</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>PNG scale</source>
        <translation>PNG 缩放倍数</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG vector image (*.svg);;PDF (*.pdf)</source>
        <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg);;PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Title line with the model, GPUs and layout</source>
        <translation>标题行：模型、GPU 与并行布局</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>%1 · %2 × %3 · %4 · micro batch %5 · global batch %6 · %7</source>
        <translation>%1 · %2 × %3 · %4 · 微批大小 %5 · 全局批大小 %6 · %7</translation>
    </message>
</context>
<context>
    <name>Knobs</name>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Micro batch</source>
        <translation>微批大小</translation>
    </message>
    <message>
        <source>Global batch</source>
        <translation>全局批大小</translation>
    </message>
    <message>
        <source>Tensor parallel (TP)</source>
        <translation>张量并行（TP）</translation>
    </message>
    <message>
        <source>Pipeline parallel (PP)</source>
        <translation>流水线并行（PP）</translation>
    </message>
    <message>
        <source>Virtual stages (VPP)</source>
        <translation>虚拟流水线阶段数（VPP）</translation>
    </message>
    <message>
        <source>Data parallel (DP)</source>
        <translation>数据并行（DP）</translation>
    </message>
    <message>
        <source>Context parallel (CP)</source>
        <translation>上下文并行（CP）</translation>
    </message>
    <message>
        <source>Expert parallel (EP)</source>
        <translation>专家并行（EP）</translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation>ZeRO 级别</translation>
    </message>
    <message>
        <source>GPUs (more data-parallel replicas, same microbatches each)</source>
        <translation>GPU 数（增加数据并行副本，每个副本微批数不变）</translation>
    </message>
    <message>
        <source>GPUs (more data-parallel replicas, same global batch)</source>
        <translation>GPU 数（增加数据并行副本，全局批大小不变）</translation>
    </message>
    <message>
        <source>NCCL timeout (min)</source>
        <translation>NCCL 超时（分钟）</translation>
    </message>
    <message>
        <source>Straggler slowdown (%)</source>
        <translation>慢节点减速（%）</translation>
    </message>
    <message>
        <source>Straggler&apos;s stage</source>
        <translation>慢节点所在阶段</translation>
    </message>
    <message>
        <source>Degraded link (%)</source>
        <translation>降速链路带宽（%）</translation>
    </message>
    <message>
        <source>Hangs per week</source>
        <translation>每周挂起次数</translation>
    </message>
    <message>
        <source>Loss spikes per week</source>
        <translation>每周损失尖峰次数</translation>
    </message>
    <message>
        <source>PowerSGD rank</source>
        <translation>PowerSGD 秩</translation>
    </message>
    <message>
        <source>Top-k kept (‰)</source>
        <translation>Top-k 保留比例（‰）</translation>
    </message>
    <message>
        <source>ZeRO-3 prefetch depth (layers)</source>
        <translation>ZeRO-3 预取深度（层）</translation>
    </message>
    <message>
        <source>NICs per node (0: one per GPU)</source>
        <translation>每节点网卡数（0：每块 GPU 一块）</translation>
    </message>
    <message>
        <source>Nodes per leaf switch (0: non-blocking)</source>
        <translation>每个叶交换机的节点数（0：无阻塞）</translation>
    </message>
    <message>
        <source>Leaf uplink oversubscription (o:1)</source>
        <translation>叶交换机上行收敛比（o:1）</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>parascope-probe is not installed: it is built only where the CUDA Toolkit is found.</source>
        <translation>未安装 parascope-probe：只有找到 CUDA Toolkit 时才会构建它。</translation>
    </message>
    <message>
        <source>Measuring this machine (parascope-probe --quick)…</source>
        <translation>正在测量本机（parascope-probe --quick）…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>parascope-probe did not start: %1</source>
        <translation>parascope-probe 未能启动：%1</translation>
    </message>
    <message>
        <source>parascope-probe was stopped or crashed</source>
        <translation>parascope-probe 被终止或崩溃</translation>
    </message>
    <message>
        <source>No usable GPU on this machine: %1</source>
        <translation>本机没有可用的 GPU：%1</translation>
    </message>
    <message>
        <source>parascope-probe failed (exit code %1)</source>
        <translation>parascope-probe 运行失败（退出码 %1）</translation>
    </message>
    <message>
        <source>Recover scenario</source>
        <translation>恢复场景</translation>
    </message>
    <message>
        <source>ParaScope did not close properly on %1. Restore the scenario it was working on?</source>
        <translation>ParaScope 在 %1 没有正常关闭。要恢复当时正在编辑的场景吗？</translation>
    </message>
    <message>
        <source>Other unsaved scenarios, kept until you answer for each: %1</source>
        <translation>其他未保存的场景（逐一答复前一直保留）：%1</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>放弃</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>稍后</translation>
    </message>
    <message>
        <source>INVALID</source>
        <translation>配置无效</translation>
    </message>
    <message>
        <source>Step %1 · %2 tokens/s · MFU %3 % · peak %4 / %5 GiB (stage %6)</source>
        <translation>单步耗时 %1 · %2 tokens/s · MFU %3 % · 峰值显存 %4 / %5 GiB（阶段 %6）</translation>
    </message>
    <message>
        <source>&lt;b&gt;calibrated&lt;/b&gt; · </source>
        <translation>&lt;b&gt;已校准&lt;/b&gt; · </translation>
    </message>
    <message>
        <source>OUT OF MEMORY</source>
        <translation>显存不足（OOM）</translation>
    </message>
    <message>
        <source> · vs A: step %1, tokens/s %2, peak %3</source>
        <translation> · 相对 A：单步耗时 %1，吞吐 %2，峰值显存 %3</translation>
    </message>
    <message>
        <source> · CPU offload %1 / %2 GiB per node</source>
        <translation> · CPU 卸载：每节点主机内存 %1 / %2 GiB</translation>
    </message>
    <message>
        <source>MEMORY BORDERLINE (±%1 GiB)</source>
        <translation>显存临界（±%1 GiB）</translation>
    </message>
    <message>
        <source>How sure: %1; tokens/s and MFU alike.</source>
        <translation>可信度：%1；吞吐与 MFU 同此。</translation>
    </message>
</context>
<context>
    <name>MemoryChart</name>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
</context>
<context>
    <name>SaveFile</name>
    <message>
        <source>only %1 of %2 bytes reached the disk (disk full or file too large?)</source>
        <translation>只有 %1 / %2 字节写入了磁盘（磁盘已满或文件过大？）</translation>
    </message>
    <message>
        <source>%1 is a folder</source>
        <translation>%1 是一个文件夹</translation>
    </message>
</context>
<context>
    <name>SearchHeatmap</name>
    <message>
        <source>TP %1 · PP %2</source>
        <translation>TP %1 · PP %2</translation>
    </message>
    <message>
        <source>%1: best step %2 s %3 (%4 tokens/s)</source>
        <translation>%1：最短单步耗时 %2 s %3（%4 tokens/s）</translation>
    </message>
    <message>
        <source>%1: every valid layout runs out of memory</source>
        <translation>%1：每种合法布局都显存溢出（OOM）</translation>
    </message>
    <message>
        <source>%1: no valid layout on this many GPUs</source>
        <translation>%1：当前 GPU 数下没有合法布局</translation>
    </message>
</context>
<context>
    <name>TimelineChart</name>
    <message>
        <source>Forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>Backward (input)</source>
        <translation>反向（输入梯度）</translation>
    </message>
    <message>
        <source>Backward (weight)</source>
        <translation>反向（权重梯度）</translation>
    </message>
    <message>
        <source>Forward &amp; backward overlapped</source>
        <translation>前向与反向重叠</translation>
    </message>
    <message>
        <source>Send / receive</source>
        <translation>发送 / 接收</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Collective (DP)</source>
        <translation>集合通信（DP）</translation>
    </message>
</context>
<context>
    <name>Walls</name>
    <message>
        <source>Memory wall</source>
        <translation>显存墙</translation>
    </message>
    <message>
        <source>Communication wall</source>
        <translation>通信墙</translation>
    </message>
    <message>
        <source>Efficiency wall</source>
        <translation>效率墙</translation>
    </message>
    <message>
        <source>Stability wall</source>
        <translation>稳定性墙</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>显存墙</translation>
    </message>
    <message>
        <source>Comm.</source>
        <translation>通信墙</translation>
    </message>
    <message>
        <source>Efficiency</source>
        <translation>效率墙</translation>
    </message>
    <message>
        <source>Stability</source>
        <translation>稳定性墙</translation>
    </message>
</context>
<context>
    <name>parascope::ui</name>
    <message>
        <source>Peak memory per GPU</source>
        <translation>每块 GPU 的峰值显存</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步耗时</translation>
    </message>
    <message>
        <source>Bubble (the simulated timeline)</source>
        <translation>气泡（模拟时间线）</translation>
    </message>
    <message>
        <source>Bubble (the schedule&apos;s formula)</source>
        <translation>气泡（调度的公式）</translation>
    </message>
    <message>
        <source>Exposed communication / step</source>
        <translation>未重叠通信 / 单步耗时</translation>
    </message>
    <message>
        <source>GiB each GPU sends in DP collectives per step</source>
        <translation>每块 GPU 每步在 DP 集合通信中发送的 GiB</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
</context>
<context>
    <name>parascope::ui::AdvisorDialog</name>
    <message>
        <source>ok</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>已调整</translation>
    </message>
    <message>
        <source>look</source>
        <translation>注意</translation>
    </message>
    <message>
        <source>Walking the decision procedure…</source>
        <translation>正在按决策流程分析…</translation>
    </message>
    <message>
        <source>Advisor: the decision procedure</source>
        <translation>决策流程向导</translation>
    </message>
    <message>
        <source>Use this layout</source>
        <translation>采用此布局</translation>
    </message>
    <message>
        <source>Use the search&apos;s best</source>
        <translation>采用搜索最优解</translation>
    </message>
    <message>
        <source>The course&apos;s decision procedure on %1, %2 GPUs, global batch %3: each step with what it found and why.</source>
        <translation>按课程的决策流程分析 %1、%2 块 GPU、全局批大小 %3：每一步给出发现和依据。</translation>
    </message>
    <message>
        <source>Why: </source>
        <translation>依据：</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>step %1, peak %2 GiB</source>
        <translation>单步耗时 %1，峰值显存 %2 GiB</translation>
    </message>
    <message>
        <source>does not fit: peak %1 GiB</source>
        <translation>放不下：峰值显存 %1 GiB</translation>
    </message>
    <message>
        <source>Against the strategy search</source>
        <translation>与策略搜索对比</translation>
    </message>
    <message>
        <source>Yours</source>
        <translation>你的布局</translation>
    </message>
    <message>
        <source>The procedure</source>
        <translation>决策流程</translation>
    </message>
    <message>
        <source>The search</source>
        <translation>策略搜索</translation>
    </message>
    <message>
        <source>Report card</source>
        <translation>布局成绩单</translation>
    </message>
    <message>
        <source>Memory headroom</source>
        <translation>显存余量</translation>
    </message>
    <message>
        <source>Exposed communication</source>
        <translation>未重叠通信</translation>
    </message>
    <message>
        <source>Bubble + uneven stages</source>
        <translation>气泡与阶段不均</translation>
    </message>
    <message>
        <source>Stability (1 − goodput)</source>
        <translation>稳定性（1 − 有效训练时间占比）</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步耗时</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CalibrationDialog</name>
    <message>
        <source>Calibrate from a hardware profile</source>
        <translation>用硬件实测档案校准</translation>
    </message>
    <message>
        <source>Measured on &lt;b&gt;%1&lt;/b&gt; (profile status: %2). Measured numbers replace the datasheet-derived defaults of &lt;b&gt;%3&lt;/b&gt;; memory is unaffected, times change.</source>
        <translation>测量设备：&lt;b&gt;%1&lt;/b&gt;（实测档案状态：%2）。实测数值将替换 &lt;b&gt;%3&lt;/b&gt; 基于规格的默认值；显存不受影响，时间会改变。</translation>
    </message>
    <message>
        <source>GEMM efficiency (of the dense bf16 peak)</source>
        <translation>GEMM 效率（相对 bf16 稠密峰值）</translation>
    </message>
    <message>
        <source>HBM efficiency (of the datasheet bandwidth)</source>
        <translation>HBM 效率（相对规格带宽）</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>GPU 显存</translation>
    </message>
    <message>
        <source>NVLink efficiency (busbw / link)</source>
        <translation>NVLink 效率（总线带宽 / 链路带宽）</translation>
    </message>
    <message>
        <source>Network efficiency (busbw per GPU / NIC)</source>
        <translation>网络效率（每 GPU 总线带宽 / 网卡带宽）</translation>
    </message>
    <message>
        <source>Measured collective points</source>
        <translation>实测集合通信数据点</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>量</translation>
    </message>
    <message>
        <source>Datasheet</source>
        <translation>规格值</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>实测值</translation>
    </message>
    <message>
        <source>(not measured)</source>
        <translation>（未测量）</translation>
    </message>
</context>
<context>
    <name>parascope::ui::ChartView</name>
    <message>
        <source>Invalid configuration</source>
        <translation>配置无效</translation>
    </message>
</context>
<context>
    <name>parascope::ui::ClassAnswersDialog</name>
    <message>
        <source>Class answers</source>
        <translation>全班答案分布</translation>
    </message>
    <message>
        <source>%1, step %2: %3 (%4 answers)</source>
        <translation>%1，第 %2 步：%3（%4 个回答）</translation>
    </message>
    <message>
        <source>answers (the engine today: %1 %2)</source>
        <translation>回答数（引擎当前值：%1 %2）</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CollectiveChart</name>
    <message numerus="yes">
        <source>%1 %2 of %3 on %n GPU(s)</source>
        <translation>
            <numerusform>%1 %2，%3，%n 块 GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n node(s)</source>
        <translation>
            <numerusform> · %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source> · %1 per node</source>
        <translation> · 每节点 %1 块</translation>
    </message>
    <message numerus="yes">
        <source>Done: %n step(s) in %1</source>
        <translation>
            <numerusform>完成：%n 步，用时 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Step %1 of %2 · %3 · %4 → %5</source>
        <translation>第 %1 步，共 %2 步 · %3 · %4 → %5</translation>
    </message>
    <message numerus="yes">
        <source> · %n send(s) of %1</source>
        <translation>
            <numerusform> · %n 次发送，每次 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Each GPU sends %1 (%2). The textbook&apos;s 2·S·n = %3 is the total over all %4 GPUs, not one GPU&apos;s traffic; a parameter server would move %5 through its one server.</source>
        <translation>每块 GPU 发送 %1（%2）。教科书的 2·S·n = %3 是全部 %4 块 GPU 的总量，不是一块 GPU 的流量；参数服务器则要让 %5 经过它唯一的服务器。</translation>
    </message>
    <message>
        <source>Each GPU sends at most %1 (%2).</source>
        <translation>每块 GPU 最多发送 %1（%2）。</translation>
    </message>
    <message>
        <source>Time %1 by the α–β model on these links · algbw %2 · busbw %3, as nccl-tests prints them</source>
        <translation>按这些链路的 α–β 模型用时 %1 · 算法带宽 algbw %2 · 总线带宽 busbw %3（与 nccl-tests 的输出口径一致）</translation>
    </message>
    <message>
        <source>From the communication chart: %1, one call of the step.</source>
        <translation>来自通信图：%1，单步中的一次调用。</translation>
    </message>
    <message>
        <source>The group has %1 GPUs; the walkthrough is made for at most %2, and shows that many.</source>
        <translation>该并行组有 %1 块 GPU；分步演示最多支持 %2 块，此处按 %2 块展示。</translation>
    </message>
    <message>
        <source>NCCL&apos;s ring: %1 channels, one per NIC, each with S/%1; the diagram plays channel 1, every step timed with all channels sharing the links.</source>
        <translation>NCCL 环形：%1 个通道，每块网卡一个，各传 S/%1；图中演示通道 1，每步耗时已计入所有通道共享链路。</translation>
    </message>
    <message>
        <source>The engine (the communication chart) runs this collective by %1 too: the same %2.</source>
        <translation>引擎（通信图）对该集合通信同样采用%1：耗时同为 %2。</translation>
    </message>
    <message>
        <source>The engine would run %1 here: %2; this form takes %3× as long.</source>
        <translation>引擎在此会采用%1：%2；本算法耗时为其 %3 倍。</translation>
    </message>
    <message>
        <source>Teaching version, not what NCCL runs.</source>
        <translation>教学版本，并非 NCCL 的实际算法。</translation>
    </message>
    <message>
        <source>The same on these GPUs: %1 (fastest: %2; teaching forms marked *)</source>
        <translation>同样的 GPU 上：%1（最快：%2；* 为教学版本）</translation>
    </message>
    <message>
        <source>Bandwidth ladder, %1:</source>
        <translation>带宽阶梯，%1：</translation>
    </message>
    <message>
        <source>Bandwidth ladder: %1 GB/s (both ways → one way → per GPU → achievable → algbw → busbw; hover the diagram for each step)</source>
        <translation>带宽阶梯：%1 GB/s（双向 → 单向 → 每块 GPU → 可达 → algbw → busbw；鼠标悬停在图上查看每一级）</translation>
    </message>
    <message>
        <source>DeepEP sends a token once to each other GPU that holds any of its experts, and across nodes once to each other node (NVLink forwards it there); the exchange shown sends one copy per expert.</source>
        <translation>DeepEP 把一个词元只发给持有其任一专家的每块其他 GPU 一次，跨节点时只发给每个其他节点一次（再由 NVLink 转发到节点内）；图中的两两交换则为每个专家各发一份。</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CollectivesView</name>
    <message>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>per node</source>
        <translation>每节点</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <source>The buffer S, as nccl-tests&apos; size column (for an all-gather: the gathered output)</source>
        <translation>缓冲区大小 S，与 nccl-tests 的 size 列相同（AllGather 为收集后的输出）</translation>
    </message>
    <message>
        <source>GPUs of the group in each node: a data-parallel group across nodes often has one</source>
        <translation>通信组在每个节点内的 GPU 数：跨节点的数据并行组常常每节点只有一块</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开头</translation>
    </message>
    <message>
        <source>◀ Step</source>
        <translation>◀ 上一步</translation>
    </message>
    <message>
        <source>Step ▶</source>
        <translation>下一步 ▶</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Drag to move through the steps</source>
        <translation>拖动以逐步浏览</translation>
    </message>
    <message>
        <source>%1 has no step-by-step form: the Collectives tab shows AllReduce, AllGather, ReduceScatter, All-to-All and broadcast</source>
        <translation>%1 没有逐步演示：集合通信页演示 AllReduce、AllGather、ReduceScatter、All-to-All 和广播</translation>
    </message>
    <message>
        <source>%1 (teaching)</source>
        <translation>%1（教学）</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CommChart</name>
    <message>
        <source>A: exposed (pinned)</source>
        <translation>A：未重叠通信（已固定）</translation>
    </message>
    <message>
        <source>On the link</source>
        <translation>链路占用时间</translation>
    </message>
    <message>
        <source>Exposed (not overlapped)</source>
        <translation>未重叠通信</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;a group of %n GPU(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;通信组共 %n 块 GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> on %n node(s)</source>
        <translation>
            <numerusform>，跨 %n 个节点</numerusform>
        </translation>
    </message>
    <message>
        <source>; %1 calls of %2; %3 sent per GPU per step</source>
        <translation>；%1 次调用，每次 %2；每块 GPU 每步发送 %3</translation>
    </message>
    <message>
        <source>%1, all exposed</source>
        <translation>%1，全部未重叠</translation>
    </message>
    <message>
        <source>%1, exposed %2</source>
        <translation>%1，未重叠 %2</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n call(s)</source>
        <translation>
            <numerusform>%1 · %n 次</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The other %n collective(s)</source>
        <translation>
            <numerusform>其余 %n 项集合通信</numerusform>
        </translation>
    </message>
    <message>
        <source>Time per step (ms)</source>
        <translation>每步时间（ms）</translation>
    </message>
    <message>
        <source>Time per step (s)</source>
        <translation>每步时间（s）</translation>
    </message>
    <message numerus="yes">
        <source>%1
%n more: double-click</source>
        <translation>
            <numerusform>%1
另有 %n 项：双击放大</numerusform>
        </translation>
    </message>
    <message>
        <source>Stage boundaries (from → to, link, one send):</source>
        <translation>阶段边界（发送方 → 接收方，链路，单次发送耗时）：</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>……另有 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2 · %3 · %4 · %5 %6 GB/s</source>
        <translation>%1 %2 · %3 · %4 · %5 %6 GB/s</translation>
    </message>
    <message>
        <source>, by the %1 algorithm at a bus bandwidth of %2 GB/s (nccl-tests&apos; busbw: factor·S/t)</source>
        <translation>，采用%1算法，总线带宽 %2 GB/s（即 nccl-tests 的 busbw：系数·S/t）</translation>
    </message>
    <message>
        <source>Bandwidth ladder, %1:</source>
        <translation>带宽阶梯，%1：</translation>
    </message>
    <message>
        <source>One GPU: nothing to communicate</source>
        <translation>单块 GPU：没有需要通信的数据</translation>
    </message>
    <message>
        <source>No collectives in this layout</source>
        <translation>此布局没有集合通信</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CompareController</name>
    <message>
        <source>Compare with a measured trace</source>
        <translation>与实测跟踪对比</translation>
    </message>
    <message>
        <source>PyTorch profiler traces (*.json)</source>
        <translation>PyTorch Profiler 跟踪文件 (*.json)</translation>
    </message>
    <message>
        <source>&amp;Pin as A (compare)</source>
        <translation>固定为 A（对比）(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Clear pin</source>
        <translation>取消固定(&amp;C)</translation>
    </message>
    <message>
        <source>Compare with a &amp;measured trace (PyTorch profiler)…</source>
        <translation>与实测跟踪对比（PyTorch Profiler）(&amp;M)…</translation>
    </message>
    <message>
        <source>A Chrome trace from torch.profiler beside the simulated step of this scenario: step time, GEMMs, attention, communication, idle</source>
        <translation>把 torch.profiler 导出的 Chrome 跟踪与本场景的模拟单步并列：单步耗时、矩阵乘、注意力、通信、空闲</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Which GPU?</source>
        <translation>对比哪块 GPU？</translation>
    </message>
    <message>
        <source>GPU to compare:</source>
        <translation>要对比的 GPU：</translation>
    </message>
    <message>
        <source>Cannot read the trace</source>
        <translation>无法读取跟踪文件</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>Export comparison table</source>
        <translation>导出对比表</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>nothing is pinned as A (Scenario → Pin as A)</source>
        <translation>尚未固定对比场景 A（场景 → 固定为 A）</translation>
    </message>
    <message>
        <source>Export &amp;comparison table (CSV)…</source>
        <translation>导出对比表（CSV）(&amp;C)…</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CompareTable</name>
    <message>
        <source>B vs A</source>
        <translation>B 相对 A</translation>
    </message>
    <message>
        <source> pts</source>
        <translation> 个百分点</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>单步耗时</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>Tokens/s</translation>
    </message>
    <message>
        <source>MFU</source>
        <translation>MFU</translation>
    </message>
    <message>
        <source>Peak memory (GiB)</source>
        <translation>峰值显存（GiB）</translation>
    </message>
    <message>
        <source>Bubble (simulated)</source>
        <translation>气泡占比（模拟）</translation>
    </message>
    <message>
        <source>Exposed communication</source>
        <translation>未重叠通信</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CourseController</name>
    <message>
        <source>&amp;Next lesson step</source>
        <translation>案例下一步(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Advisor: the decision procedure…</source>
        <translation>决策流程向导(&amp;A)…</translation>
    </message>
    <message>
        <source>Does it fit with DP? Then ZeRO; TP inside a node, PP across nodes; communication; bubble — step by step, beside the strategy search&apos;s best</source>
        <translation>只用 DP 放得下吗？再用 ZeRO；节点内 TP，跨节点 PP；通信；气泡 —— 逐步分析，并与策略搜索的最优解对比</translation>
    </message>
    <message>
        <source>&lt;p&gt;Pick a lesson in the scenario panel to read what it shows.&lt;/p&gt;</source>
        <translation>&lt;p&gt;在场景面板中选择一个教学案例，这里会显示它的讲解。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;i&gt;Step %1 of %2: %3 — Scenario → Next lesson step (Ctrl+→)&lt;/i&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;i&gt;第 %1 步，共 %2 步：%3 —— 场景 → 案例下一步（Ctrl+→）&lt;/i&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Exercise: predict the number asked below, then Reveal. The charts and this step&apos;s text stay hidden until you do.</source>
        <translation>练习：先预测下面问的数字，再点“揭晓”。在此之前，图表和本步讲解保持隐藏。</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n answer(s) to %1</source>
        <translation>
            <numerusform>已把 %n 条答案导出到 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Back to the lesson&apos;s first step</source>
        <translation>回到本课第一步</translation>
    </message>
    <message>
        <source>&amp;Restore this lesson step</source>
        <translation>恢复本课当前步骤(&amp;R)</translation>
    </message>
    <message>
        <source>Put every knob back as this lesson step set it</source>
        <translation>把所有参数恢复为本课当前步骤的设置</translation>
    </message>
    <message>
        <source>That was the lesson&apos;s last step: back to step 1</source>
        <translation>这是本课的最后一步：回到第 1 步</translation>
    </message>
    <message>
        <source>Class answers</source>
        <translation>全班答案分布</translation>
    </message>
    <message>
        <source>Exercise answers (*.csv)</source>
        <translation>练习答案 (*.csv)</translation>
    </message>
    <message>
        <source>&amp;Class answers…</source>
        <translation>全班答案分布(&amp;C)…</translation>
    </message>
    <message>
        <source>The students&apos; exported exercise answers (CSV) as a histogram per exercise, with the typical mistake of each bar</source>
        <translation>把学生导出的练习答案（CSV）按每道练习画成直方图，并给出每一栏对应的典型错误</translation>
    </message>
    <message>
        <source>%1: cannot be read (%2)</source>
        <translation>%1：无法读取（%2）</translation>
    </message>
    <message>
        <source>These lines were left out:
%1</source>
        <translation>以下各行未被计入：
%1</translation>
    </message>
    <message>
        <source>no answers in the files</source>
        <translation>文件中没有答案</translation>
    </message>
    <message>
        <source>Open a lesson file</source>
        <translation>打开教学案例文件</translation>
    </message>
    <message>
        <source>Lesson (*.json)</source>
        <translation>教学案例（*.json）</translation>
    </message>
    <message>
        <source>&amp;Write an exercise from the screen…</source>
        <translation>从屏幕出一道练习题(&amp;W)…</translation>
    </message>
    <message>
        <source>Pick a quantity the window shows, write the question and save it as a lesson step</source>
        <translation>选择窗口上显示的一个量，写下题目，保存为教学案例的一步</translation>
    </message>
    <message>
        <source>&amp;Open a lesson file…</source>
        <translation>打开教学案例文件(&amp;O)…</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CustomModelDialog</name>
    <message>
        <source>Custom model</source>
        <translation>自定义模型</translation>
    </message>
    <message>
        <source>A model is a JSON object with the fields of a preset (layers, hidden, heads, kv_heads, ffn_hidden, vocab, mlp, norm, bias, tied_embeddings, position, moe) and, where the model has them, qkv_bias, qk_norm, attention_sinks, parallel_block, sliding_window, mla and mtp_modules (README, &quot;Scenario files&quot;).</source>
        <translation>模型是一个 JSON 对象，字段与预设相同（layers、hidden、heads、kv_heads、ffn_hidden、vocab、mlp、norm、bias、tied_embeddings、position、moe），模型具备时还有 qkv_bias、qk_norm、attention_sinks、parallel_block、sliding_window、mla 和 mtp_modules（见 README“Scenario files”一节）。</translation>
    </message>
</context>
<context>
    <name>parascope::ui::DesignTaskPanel</name>
    <message>
        <source>Your layout:</source>
        <translation>你的布局：</translation>
    </message>
    <message>
        <source>Revealed</source>
        <translation>揭晓</translation>
    </message>
    <message>
        <source>The Advisor (the decision procedure): %1, %2 days</source>
        <translation>决策流程向导：%1，%2 天</translation>
    </message>
    <message>
        <source>The strategy search: %1, %2 days</source>
        <translation>策略搜索：%1，%2 天</translation>
    </message>
    <message>
        <source>Tools → Advisor (Ctrl+D) walks the procedure step by step; move a slider and hand in again.</source>
        <translation>工具 → 决策流程向导（Ctrl+D）逐步展示决策流程；移动滑块后可再次提交。</translation>
    </message>
    <message>
        <source>Design task</source>
        <translation>设计任务</translation>
    </message>
    <message>
        <source>Hand in again</source>
        <translation>再次提交</translation>
    </message>
    <message>
        <source>Hand in my layout</source>
        <translation>提交我的布局</translation>
    </message>
    <message>
        <source>Grading: the Advisor and the search are still working on these GPUs…</source>
        <translation>评分中：决策流程与策略搜索仍在这些 GPU 上计算…</translation>
    </message>
    <message>
        <source>Set TP, PP, DP, ZeRO, recompute and the micro batch with the sliders, then hand in. The Advisor&apos;s and the search&apos;s answers are revealed after.</source>
        <translation>用滑块设置 TP、PP、DP、ZeRO、重计算和微批大小，然后提交。决策流程和策略搜索的答案在提交之后揭晓。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>parascope::ui::DiagnosticsPanel</name>
    <message numerus="yes">
        <source>, %n warning(s)</source>
        <translation>
            <numerusform>，%n 个警告</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;What would fix it:&lt;/b&gt; evaluating changes…</source>
        <translation>&lt;b&gt;修复建议：&lt;/b&gt;正在评估各项调整…</translation>
    </message>
    <message>
        <source>Double-click to apply this change</source>
        <translation>双击应用此调整</translation>
    </message>
    <message>
        <source>&lt;b&gt;What would fix it:&lt;/b&gt; no single change on these GPUs fixes it without breaking something else.</source>
        <translation>&lt;b&gt;修复建议：&lt;/b&gt;在这些 GPU 上，没有一项调整能解决它而不引出别的问题。</translation>
    </message>
    <message>
        <source>&lt;b&gt;What would fix it&lt;/b&gt; (each change evaluated; double-click to apply):</source>
        <translation>&lt;b&gt;修复建议&lt;/b&gt;（每项调整均已评估；双击即可应用）：</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n 块 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;What breaks&lt;/b&gt; (%1): nothing — valid and fits.</source>
        <translation>&lt;b&gt;问题诊断&lt;/b&gt;（%1）：无 —— 配置有效且放得下。</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;What breaks&lt;/b&gt; (%1): %n error(s)</source>
        <translation>
            <numerusform>&lt;b&gt;问题诊断&lt;/b&gt;（%1）：%n 个错误</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>parascope::ui::ExerciseEditorDialog</name>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>Stage %1 memory: %2</source>
        <translation>阶段 %1 显存：%2</translation>
    </message>
    <message>
        <source>%1 %2 (%3): time per step</source>
        <translation>%1 %2（%3）：每步耗时</translation>
    </message>
    <message>
        <source>Write an exercise from the screen</source>
        <translation>从屏幕出一道练习题</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>量</translation>
    </message>
    <message>
        <source>The engine now</source>
        <translation>引擎当前数值</translation>
    </message>
    <message>
        <source>Question (English)</source>
        <translation>题目（英文）</translation>
    </message>
    <message>
        <source>Question (Chinese)</source>
        <translation>题目（中文）</translation>
    </message>
    <message>
        <source>How to work it out (English)</source>
        <translation>解题思路（英文）</translation>
    </message>
    <message>
        <source>How to work it out (Chinese)</source>
        <translation>解题思路（中文）</translation>
    </message>
    <message>
        <source>Step label (English)</source>
        <translation>步骤名称（英文）</translation>
    </message>
    <message>
        <source>Step label (Chinese)</source>
        <translation>步骤名称（中文）</translation>
    </message>
    <message>
        <source>An estimate this close to the engine&apos;s value, relatively, counts as right</source>
        <translation>估计值与引擎数值的相对误差在此范围内即算正确</translation>
    </message>
    <message>
        <source>Tolerance</source>
        <translation>容差</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Lesson file</source>
        <translation>教学案例文件</translation>
    </message>
    <message>
        <source>only for a new file</source>
        <translation>仅用于新文件</translation>
    </message>
    <message>
        <source>New lesson&apos;s title</source>
        <translation>新教学案例的标题</translation>
    </message>
    <message>
        <source>Saved as step %1 of %2: Tools → Open a lesson file… shows it</source>
        <translation>已保存为 %2 的第 %1 步：工具 → 打开教学案例文件… 可查看</translation>
    </message>
    <message>
        <source>Lesson (*.json)</source>
        <translation>教学案例（*.json）</translation>
    </message>
    <message>
        <source>Pick a quantity first.</source>
        <translation>请先选择一个量。</translation>
    </message>
    <message>
        <source>Choose the lesson file to save to.</source>
        <translation>请选择要保存到的教学案例文件。</translation>
    </message>
</context>
<context>
    <name>parascope::ui::ExercisePanel</name>
    <message>
        <source>Type your estimate first: a number.</source>
        <translation>请先输入你的估计值（一个数字）。</translation>
    </message>
    <message>
        <source>Formula: </source>
        <translation>公式：</translation>
    </message>
    <message>
        <source>Predict, then reveal</source>
        <translation>先预测，再揭晓</translation>
    </message>
    <message>
        <source>Reveal</source>
        <translation>揭晓</translation>
    </message>
    <message>
        <source>your estimate</source>
        <translation>你的估计</translation>
    </message>
</context>
<context>
    <name>parascope::ui::ExportController</name>
    <message>
        <source>Memory chart copied to the clipboard</source>
        <translation>显存图已复制到剪贴板</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export exercise results</source>
        <translation>导出练习结果</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export Chrome trace</source>
        <translation>导出 Chrome 跟踪</translation>
    </message>
    <message>
        <source>Trace (*.json)</source>
        <translation>跟踪文件 (*.json)</translation>
    </message>
    <message>
        <source>&amp;Export chart</source>
        <translation>导出图表(&amp;E)</translation>
    </message>
    <message>
        <source>Memory chart…</source>
        <translation>显存图…</translation>
    </message>
    <message>
        <source>Timeline chart…</source>
        <translation>时间线图…</translation>
    </message>
    <message>
        <source>Communication chart…</source>
        <translation>通信图…</translation>
    </message>
    <message>
        <source>Sweep chart…</source>
        <translation>扫描图…</translation>
    </message>
    <message>
        <source>Search (Pareto) chart…</source>
        <translation>搜索（帕累托）图…</translation>
    </message>
    <message>
        <source>Slot grid of the schedule…</source>
        <translation>调度的时隙网格图…</translation>
    </message>
    <message>
        <source>The four walls…</source>
        <translation>四面墙…</translation>
    </message>
    <message>
        <source>The collective at this step…</source>
        <translation>当前步骤的集合通信…</translation>
    </message>
    <message>
        <source>Memory over the step…</source>
        <translation>单步内的显存变化…</translation>
    </message>
    <message>
        <source>&amp;Copy memory chart</source>
        <translation>复制显存图(&amp;C)</translation>
    </message>
    <message>
        <source>Export report (JSON)…</source>
        <translation>导出报告（JSON）…</translation>
    </message>
    <message>
        <source>Export exercise results (CSV)…</source>
        <translation>导出练习结果（CSV）…</translation>
    </message>
    <message>
        <source>Export Chrome trace…</source>
        <translation>导出 Chrome 跟踪…</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>Could not export %1: %2</source>
        <translation>无法导出 %1：%2</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
</context>
<context>
    <name>parascope::ui::FilesController</name>
    <message>
        <source>Open scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <source>ParaScope scenarios (*.parascope.json *.json)</source>
        <translation>ParaScope 场景 (*.parascope.json *.json)</translation>
    </message>
    <message>
        <source>Save scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <source>ParaScope scenarios (*.parascope.json)</source>
        <translation>ParaScope 场景 (*.parascope.json)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;as…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>%1 is not a valid scenario:

%2</source>
        <translation>%1 不是有效的场景文件：

%2</translation>
    </message>
    <message>
        <source>Could not save %1: %2
The previous file is unchanged.</source>
        <translation>无法保存 %1：%2
原文件保持不变。</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>There is no scenario to recover.</source>
        <translation>没有可恢复的场景。</translation>
    </message>
    <message>
        <source>Restored the scenario from the last session</source>
        <translation>已恢复上次会话的场景</translation>
    </message>
</context>
<context>
    <name>parascope::ui::HistoryController</name>
    <message>
        <source>&amp;Undo scenario change</source>
        <translation>撤销场景修改(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo scenario change</source>
        <translation>重做场景修改(&amp;R)</translation>
    </message>
    <message>
        <source>Go back to the scenario before the last change (a slider drag is one change)</source>
        <translation>回到上一次修改之前的场景（一次拖动滑块算一次修改）</translation>
    </message>
    <message>
        <source>Apply the change undone last once more</source>
        <translation>重新应用刚刚撤销的修改</translation>
    </message>
</context>
<context>
    <name>parascope::ui::ImportController</name>
    <message>
        <source>Import model</source>
        <translation>导入模型</translation>
    </message>
    <message>
        <source>Hugging Face config (config.json *.json)</source>
        <translation>Hugging Face 模型配置（config.json *.json）</translation>
    </message>
    <message>
        <source>Import hardware profile</source>
        <translation>导入硬件实测档案</translation>
    </message>
    <message>
        <source>Hardware profiles (*.json)</source>
        <translation>硬件实测档案 (*.json)</translation>
    </message>
    <message>
        <source>&amp;Import model (Hugging Face config.json)…</source>
        <translation>导入模型（Hugging Face config.json）(&amp;I)…</translation>
    </message>
    <message>
        <source>&amp;Calibrate from this machine…</source>
        <translation>用本机测量校准(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Import profile…</source>
        <translation>导入硬件实测档案(&amp;I)…</translation>
    </message>
    <message>
        <source>%1 has a vision encoder, which a ParaScope model cannot express. Import its language model alone?</source>
        <translation>%1 带有视觉编码器，ParaScope 模型无法表示。只导入其中的语言模型吗？</translation>
    </message>
    <message>
        <source>Could not import %1:
%2</source>
        <translation>无法导入 %1：
%2</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Imported %1 (%2)</source>
        <translation>已导入 %1（%2）</translation>
    </message>
    <message>
        <source>Hardware profile</source>
        <translation>硬件实测档案</translation>
    </message>
    <message>
        <source>%1 is not a valid hardware profile:

%2</source>
        <translation>%1 不是有效的硬件实测档案文件：

%2</translation>
    </message>
    <message>
        <source>The profile says there is no usable GPU here; nothing to calibrate.</source>
        <translation>实测档案显示本机没有可用的 GPU，无法校准。</translation>
    </message>
    <message>
        <source>Calibrated from %1</source>
        <translation>已用 %1 校准</translation>
    </message>
    <message>
        <source>Calibrate</source>
        <translation>校准</translation>
    </message>
    <message>
        <source>Import Megatron-LM launch script</source>
        <translation>导入 Megatron-LM 启动脚本</translation>
    </message>
    <message>
        <source>Launch scripts and argument lists (*.sh *.txt);;All files (*)</source>
        <translation>启动脚本与参数列表 (*.sh *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Llama, Mistral, Mixtral, Qwen2/3 dense and MoE, DeepSeek-V2/V3 and MoE 16B, GPT-2, GPT-OSS, Gemma 1/2/3, Phi-2/3 and Qwen2.5-VL&apos;s language model; the model opens in the custom-model editor</source>
        <translation>Llama、Mistral、Mixtral、Qwen2/3 稠密与 MoE、DeepSeek-V2/V3 与 MoE 16B、GPT-2、GPT-OSS、Gemma 1/2/3、Phi-2/3 以及 Qwen2.5-VL 的语言模型；模型在自定义模型编辑器中打开</translation>
    </message>
    <message>
        <source>Import &amp;Megatron-LM launch script…</source>
        <translation>导入 Megatron-LM 启动脚本(&amp;M)…</translation>
    </message>
    <message>
        <source>A pretrain_gpt.py launch script (torchrun, srun, sbatch) or a file of its flags: read as bash runs it, the scenario its launcher line describes, with every flag used, ignored or not understood listed</source>
        <translation>pretrain_gpt.py 的启动脚本（torchrun、srun、sbatch）或其参数文件：按 bash 的执行方式读取，得到启动行所描述的场景，并列出每个参数是已采用、未采用还是未能理解</translation>
    </message>
    <message>
        <source>Imported %1 (%2); its vision tower, %3 parameters, is not part of the model</source>
        <translation>已导入 %1（%2）；其视觉编码器（%3 参数）不属于该模型</translation>
    </message>
    <message>
        <source>The script does not say how many GPUs run it. GPUs:</source>
        <translation>脚本没有说明使用多少张 GPU。GPU 数：</translation>
    </message>
    <message>
        <source>The vocabulary size comes from the tokenizer, which ParaScope cannot read. Vocabulary size:</source>
        <translation>词表大小取自分词器，ParaScope 无法读取。词表大小：</translation>
    </message>
    <message>
        <source>assumed: %1</source>
        <translation>假定：%1</translation>
    </message>
    <message>
        <source>Imported %1: %2 flags used, %3 ignored, %4 not understood</source>
        <translation>已导入 %1：采用 %2 个参数，未采用 %3 个，未能理解 %4 个</translation>
    </message>
    <message>
        <source>%1 imported. What was done with each flag:</source>
        <translation>已导入 %1。每个参数的处理如下：</translation>
    </message>
    <message>
        <source>FP8 needs a GPU with FP8 tensor cores: the cluster is %1, not %2.</source>
        <translation>FP8 需要带 FP8 张量核心的 GPU：集群改用 %1，而不是 %2。</translation>
    </message>
</context>
<context>
    <name>parascope::ui::LanguageController</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
</context>
<context>
    <name>parascope::ui::LayerOpsView</name>
    <message>
        <source>Dense layer</source>
        <translation>稠密层</translation>
    </message>
    <message>
        <source>MoE layer</source>
        <translation>MoE 层</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Rate</source>
        <translation>速率类别</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Forward ms</source>
        <translation>前向 ms</translation>
    </message>
    <message>
        <source>FP8 cast ms</source>
        <translation>FP8 转换 ms</translation>
    </message>
    <message>
        <source>Recompute ms</source>
        <translation>重计算 ms</translation>
    </message>
    <message>
        <source>%1: %2 moved per forward pass</source>
        <translation>%1：每次前向搬运 %2</translation>
    </message>
    <message>
        <source>%1: %2 GFLOP forward</source>
        <translation>%1：前向 %2 GFLOP</translation>
    </message>
    <message>
        <source>Layer (sum)</source>
        <translation>合计（一层）</translation>
    </message>
    <message>
        <source>No op list: this estimate was computed without explanations.</source>
        <translation>没有算子列表：该估计未附带推导说明。</translation>
    </message>
    <message>
        <source>One MoE layer</source>
        <translation>一个 MoE 层</translation>
    </message>
    <message>
        <source>One dense layer</source>
        <translation>一个稠密层</translation>
    </message>
    <message>
        <source>%1: %2 ops, %3 kernel launches forward and %4 backward; %5 per microbatch on one GPU. The same list as the command-line report&apos;s time.layer_ops.</source>
        <translation>%1：%2 个算子，前向启动 %3 个内核、反向 %4 个；一块 GPU 上每个微批 %5。与命令行报告中的 time.layer_ops 是同一份列表。</translation>
    </message>
    <message>
        <source>How the time is computed: GEMM efficiency, the attention kernel&apos;s rate, or HBM bandwidth</source>
        <translation>耗时的算法：矩阵乘效率、注意力内核的速率，或 HBM 带宽</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核数</translation>
    </message>
    <message>
        <source>Kernel launches per microbatch: forward/backward</source>
        <translation>每个微批启动的内核数：前向/反向</translation>
    </message>
    <message>
        <source>Forward pass, one microbatch</source>
        <translation>前向，一个微批</translation>
    </message>
    <message>
        <source>dX ms</source>
        <translation>输入梯度 ms</translation>
    </message>
    <message>
        <source>Backward: the input gradients</source>
        <translation>反向：输入梯度</translation>
    </message>
    <message>
        <source>dW ms</source>
        <translation>权重梯度 ms</translation>
    </message>
    <message>
        <source>Backward: the weight gradients</source>
        <translation>反向：权重梯度</translation>
    </message>
    <message>
        <source>Quantizing the inputs and the output gradients to FP8</source>
        <translation>把输入和输出梯度量化为 FP8</translation>
    </message>
    <message>
        <source>What selective recompute runs again in the backward</source>
        <translation>选择性重计算在反向中重新执行的部分</translation>
    </message>
    <message>
        <source>%1: the GPU idles while the host issues the layer: the dispatcher reads the token counts back every forward, so the host is never more than a layer ahead</source>
        <translation>%1：主机下发本层时 GPU 空闲：分发器每次前向都把 token 计数读回主机，主机最多只能领先一层</translation>
    </message>
</context>
<context>
    <name>parascope::ui::MainWindow</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Scenario panel</source>
        <translation>场景面板</translation>
    </message>
    <message>
        <source>What breaks and lesson</source>
        <translation>问题诊断与教学案例</translation>
    </message>
    <message>
        <source>&amp;Scenario</source>
        <translation>场景(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Play the timeline</source>
        <translation>播放时间线(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About ParaScope</source>
        <translation>关于 ParaScope(&amp;A)</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>What breaks</source>
        <translation>问题诊断</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>Explorer</source>
        <translation>探索</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Timeline as a slot &amp;grid</source>
        <translation>时间线显示为时隙网格(&amp;G)</translation>
    </message>
    <message>
        <source>Collectives</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Memory over time</source>
        <translation>显存随时间</translation>
    </message>
    <message>
        <source>Layer ops</source>
        <translation>每层算子</translation>
    </message>
    <message>
        <source>Textbook</source>
        <translation>教材对照</translation>
    </message>
</context>
<context>
    <name>parascope::ui::MemoryChart</name>
    <message>
        <source>Pipeline stage</source>
        <translation>流水线阶段</translation>
    </message>
    <message>
        <source>Memory per GPU (GiB)</source>
        <translation>每块 GPU 显存（GiB）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Stage %1 — %2: %3 GiB&lt;/b&gt;</source>
        <translation>&lt;b&gt;阶段 %1 —— %2：%3 GiB&lt;/b&gt;</translation>
    </message>
    <message>
        <source>%1
OOM</source>
        <translation>%1
显存溢出</translation>
    </message>
    <message>
        <source>capacity %1 GiB</source>
        <translation>显存容量 %1 GiB</translation>
    </message>
    <message>
        <source>With %1 stages, formulas are shown for the first and last %2 and for the peak stage.</source>
        <translation>共有 %1 个阶段：只为前 %2 个、后 %2 个阶段和峰值阶段显示公式。</translation>
    </message>
    <message>
        <source>OOM</source>
        <translation>显存溢出</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>At the timeline cursor</source>
        <translation>时间线光标处</translation>
    </message>
    <message>
        <source>OOM: %1 of %2 stages over the capacity</source>
        <translation>显存溢出：%2 个阶段中有 %1 个超出容量</translation>
    </message>
    <message>
        <source>A: %1 · %2 (total)</source>
        <translation>A：%1 · %2（合计）</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>peak %1 GiB</source>
        <translation>峰值 %1 GiB</translation>
    </message>
    <message>
        <source>(stage %1)</source>
        <translation>（阶段 %1）</translation>
    </message>
    <message>
        <source>%1
borderline</source>
        <translation>%1
临界</translation>
    </message>
    <message>
        <source>borderline</source>
        <translation>临界</translation>
    </message>
</context>
<context>
    <name>parascope::ui::MemoryTimeChart</name>
    <message>
        <source>Compare rank 0 with</source>
        <translation>rank 0 对比调度</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Time in the step (s)</source>
        <translation>步内时间（s）</translation>
    </message>
    <message>
        <source>Memory per GPU (GiB)</source>
        <translation>每块 GPU 显存（GiB）</translation>
    </message>
    <message>
        <source>GPU capacity</source>
        <translation>GPU 显存容量</translation>
    </message>
    <message>
        <source>%1: rank 0 holds the activations of at most %2 microbatches, peak %3 GiB</source>
        <translation>%1：rank 0 最多同时保存 %2 个微批的激活，峰值 %3 GiB</translation>
    </message>
    <message>
        <source>; %1: %2, peak %3 GiB</source>
        <translation>；%1：%2 个，峰值 %3 GiB</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>rank 0 under %1</source>
        <translation>%1 下的 rank 0</translation>
    </message>
    <message>
        <source> (curves of %1 of %2 ranks, evenly spaced)</source>
        <translation>（均匀抽取 %2 个流水线 rank 中的 %1 个绘制曲线）</translation>
    </message>
    <message>
        <source>Every stage in use</source>
        <translation>各阶段显存占用</translation>
    </message>
    <message>
        <source>Allocated vs reserved</source>
        <translation>已分配与已预留</translation>
    </message>
    <message>
        <source>Allocator</source>
        <translation>显存分配器</translation>
    </message>
    <message>
        <source>caching (default)</source>
        <translation>缓存分配器（默认）</translation>
    </message>
    <message>
        <source>expandable segments</source>
        <translation>可扩展段</translation>
    </message>
    <message>
        <source>Stage %1: peak allocated %2 GiB, reserved %3 GiB, %4 of it fragmentation (%5 allocator); %6 would keep %7. Reserved never falls: freed blocks stay cached</source>
        <translation>阶段 %1：已分配峰值 %2 GiB，已预留 %3 GiB，其中碎片 %4（%5）；改用%6只留 %7。已预留显存不会回落：释放的块仍被缓存</translation>
    </message>
    <message>
        <source>caching</source>
        <translation>缓存分配器</translation>
    </message>
    <message>
        <source>the caching allocator</source>
        <translation>缓存分配器</translation>
    </message>
    <message>
        <source>; CPU offload over PCIe per step: %1 to the host, %2 back, %3 s</source>
        <translation>；CPU 卸载每步 PCIe 传输：传到主机 %1，传回 %2，%3 s</translation>
    </message>
    <message>
        <source>allocated (memory_allocated)</source>
        <translation>已分配（memory_allocated）</translation>
    </message>
    <message>
        <source>reserved (memory_reserved, what nvidia-smi shows)</source>
        <translation>已预留（memory_reserved，即 nvidia-smi 显示的值）</translation>
    </message>
    <message>
        <source>; drawn: the first %1 of %2 microbatches as a step of their own, as on the timeline (the whole step: %3 s)</source>
        <translation>；图中画的是前 %1 个微批（共 %2 个）单独成一步，与时间线相同（整步：%3 s）</translation>
    </message>
</context>
<context>
    <name>parascope::ui::PlaybackBar</name>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Play or pause the step (Space)</source>
        <translation>播放或暂停（空格键）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Speed: 1× plays the whole step in 10 s</source>
        <translation>速度：1× 用 10 秒播放完整一步</translation>
    </message>
    <message>
        <source>Drag to move through the step (or click in the timeline)</source>
        <translation>拖动以在单步内移动（或在时间线上点击）</translation>
    </message>
</context>
<context>
    <name>parascope::ui::PresenterController</name>
    <message>
        <source>&amp;Presenter mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
</context>
<context>
    <name>parascope::ui::ScenarioPanel</name>
    <message>
        <source>Lesson</source>
        <translation>教学案例</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>调度</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>Gradient dtype</source>
        <translation>梯度数据类型</translation>
    </message>
    <message>
        <source>Custom…</source>
        <translation>自定义…</translation>
    </message>
    <message>
        <source>Edit the model as JSON (the same fields as a preset)</source>
        <translation>以 JSON 编辑模型（字段与预设相同）</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Sequence parallelism (SP)</source>
        <translation>序列并行（SP）</translation>
    </message>
    <message>
        <source>GPUs = TP·PP·DP·CP = %1·%2·%3·%4 = &lt;b&gt;%5&lt;/b&gt; (%6 nodes of %7)</source>
        <translation>GPU 数 = TP·PP·DP·CP = %1·%2·%3·%4 = &lt;b&gt;%5&lt;/b&gt;（%6 个节点，每节点 %7 块）</translation>
    </message>
    <message>
        <source>Sweep this knob</source>
        <translation>扫描此参数</translation>
    </message>
    <message>
        <source>Right-click: sweep this knob</source>
        <translation>右键：扫描此参数</translation>
    </message>
    <message>
        <source>FP8 recipe</source>
        <translation>FP8 缩放方案</translation>
    </message>
    <message>
        <source>How FP8 GEMMs scale their inputs; used when the precision is FP8</source>
        <translation>FP8 GEMM 对输入的缩放方式；仅在精度为 FP8 时使用</translation>
    </message>
    <message>
        <source>CP exchange</source>
        <translation>CP 通信方式</translation>
    </message>
    <message>
        <source>How context parallelism exchanges keys and values; used when CP &gt; 1</source>
        <translation>上下文并行交换 K/V 的方式；仅在 CP &gt; 1 时使用</translation>
    </message>
    <message>
        <source>Attention kernel</source>
        <translation>注意力内核</translation>
    </message>
    <message>
        <source>none (unfused)</source>
        <translation>无（不融合）</translation>
    </message>
    <message>
        <source>The fused (flash) attention kernel the training software calls: cuDNN (Transformer Engine, as fast as FlashAttention-3 on Hopper) or FlashAttention-2 (PyTorch SDPA&apos;s default); none keeps the s × s scores in memory</source>
        <translation>训练软件调用的融合（flash）注意力内核：cuDNN（Transformer Engine，在 Hopper 上与 FlashAttention-3 一样快）或 FlashAttention-2（PyTorch SDPA 的默认内核）；选“无”则在显存中保存 s × s 的注意力分数</translation>
    </message>
    <message>
        <source>MoE dispatch</source>
        <translation>专家分发方式</translation>
    </message>
    <message>
        <source>How MoE tokens reach their experts: a copy per expert (Megatron&apos;s All-to-All) or one per GPU and per node (DeepEP); used when EP &gt; 1</source>
        <translation>MoE 令牌如何到达其专家：每个专家一份（Megatron 的 All-to-All），或每张卡、每个节点一份（DeepEP）；EP &gt; 1 时生效</translation>
    </message>
    <message>
        <source>Recomputed</source>
        <translation>重计算内容</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 and %2 more</source>
        <translation>%1 及另外 %2 项</translation>
    </message>
    <message>
        <source>What selective recompute rebuilds in the backward instead of keeping (Megatron&apos;s --recompute-modules, torchtitan&apos;s op-level SAC): %1</source>
        <translation>选择性重计算在反向中重算而不保存的部分（Megatron 的 --recompute-modules，torchtitan 的算子级选择性检查点）：%1</translation>
    </message>
    <message>
        <source>CPU offload</source>
        <translation>CPU 卸载</translation>
    </message>
    <message>
        <source>Keep model states in the node&apos;s CPU memory (ZeRO-Offload, FSDP CPU offload): GPU memory drops, host memory per node and the PCIe copies and CPU optimizer step enter the step; parameters need ZeRO-3</source>
        <translation>把模型状态放到节点的 CPU 内存中（ZeRO-Offload、FSDP CPU 卸载）：显存下降，每节点主机内存、PCIe 拷贝和 CPU 上的优化器更新计入单步耗时；卸载参数需要 ZeRO-3</translation>
    </message>
    <message>
        <source>Gradients on the wire</source>
        <translation>梯度通信格式</translation>
    </message>
    <message>
        <source>Gradient bucket</source>
        <translation>梯度分桶</translation>
    </message>
    <message>
        <source>What the data-parallel gradient reduction sends: the gradients as they are, BF16, FP8 or one bit per element with error feedback (1-bit Adam): fewer bytes on the link for a compression pass and, for 1-bit, an fp32 error buffer</source>
        <translation>数据并行梯度归约在链路上发送的格式：梯度原样、BF16、FP8，或带误差补偿的每元素 1 比特（1-bit Adam）：链路上的字节更少，代价是一次压缩，1 比特还需要 fp32 误差缓冲区</translation>
    </message>
    <message>
        <source>Off: each activation or gradient send holds its GPU until it has arrived (synchronous send/recv), as in the textbook&apos;s pipeline timeline</source>
        <translation>关闭时：每次激活或梯度的发送都占住本 GPU 直到送达（同步 send/recv），与教材中的流水线时间线相同</translation>
    </message>
    <message>
        <source>Megatron --overlap-moe-expert-parallel-comm: one microbatch&apos;s forward runs beside the previous one&apos;s backward, each one&apos;s dispatch and combine hidden behind the other&apos;s compute; needs EP &gt; 1, no full recompute, and with a pipeline the interleaved schedule</source>
        <translation>Megatron --overlap-moe-expert-parallel-comm：一个微批的前向与前一个微批的反向并排执行，各自的 dispatch 与 combine 被对方的计算掩盖；需要 EP &gt; 1、不用完全重计算，有流水线时需要交错式调度</translation>
    </message>
    <message>
        <source>Overlap DP gradient reduction</source>
        <translation>DP 梯度归约与反向重叠</translation>
    </message>
    <message>
        <source>The data-parallel gradient reduction runs during the backward, bucket by bucket (the last bucket cannot hide)</source>
        <translation>数据并行梯度归约在反向计算期间逐桶进行（最后一个桶无法被掩盖）</translation>
    </message>
    <message>
        <source>Overlap TP communication</source>
        <translation>TP 通信与矩阵乘重叠</translation>
    </message>
    <message>
        <source>Overlap EP All-to-All (combined 1F1B)</source>
        <translation>EP All-to-All 重叠（组合式 1F1B）</translation>
    </message>
    <message>
        <source>Overlap pipeline sends</source>
        <translation>流水线发送与计算重叠</translation>
    </message>
    <message>
        <source>Megatron&apos;s default</source>
        <translation>Megatron 默认值</translation>
    </message>
    <message>
        <source>Gradient bucket, millions of parameters (type 40, 40 M, 1.5 G or a plain count such as 536870912; Megatron&apos;s default is max(40 M, 1 M·DP)): smaller buckets mean more calls (latency), larger ones a longer last bucket, which cannot overlap the backward</source>
        <translation>梯度分桶大小，单位为百万参数（可输入 40、40 M、1.5 G，或直接输入参数个数如 536870912；Megatron 默认值为 max(40 M, 1 M·DP)）：桶越小调用次数越多（延迟），桶越大最后一个桶越长，无法与反向重叠</translation>
    </message>
    <message>
        <source>FP8 activation storage</source>
        <translation>FP8 激活存储</translation>
    </message>
    <message>
        <source>Keep the linear layers&apos; inputs for the backward as the FP8 copies their GEMMs made, 1 byte instead of 2, as DeepSeek-V3 does (the attention output stays 16-bit): less activation memory at no step time in the model</source>
        <translation>反向传播所需的线性层输入改存其 GEMM 已生成的 FP8 副本，每个元素 1 字节而非 2 字节，与 DeepSeek-V3 的做法相同（注意力输出仍为 16 位）：激活显存更少，模型中不增加单步耗时</translation>
    </message>
    <message>
        <source>Faults and stragglers (what-if)</source>
        <translation>故障与慢节点（假设分析）</translation>
    </message>
    <message>
        <source>One slow GPU, one degraded link, hangs that end in the NCCL timeout and loss spikes rolled back to a checkpoint: what each does to the step, the walls and goodput</source>
        <translation>一块变慢的 GPU、一条降速的链路、以 NCCL 超时告终的挂起、回滚到检查点的损失尖峰：各自对单步耗时、四堵墙和有效训练时间占比的影响</translation>
    </message>
    <message>
        <source>Network topology (what-if)</source>
        <translation>网络拓扑（假设分析）</translation>
    </message>
    <message>
        <source>The fabric between the nodes: NICs shared by a node&apos;s GPUs instead of one per GPU, leaf switches whose uplinks are oversubscribed; each group&apos;s link in the communication chart&apos;s bandwidth ladder</source>
        <translation>节点之间的网络：一个节点的多块 GPU 共用网卡（而不是每块 GPU 一块），叶交换机的上行链路有收敛比；每个通信组的链路见通信图中的带宽阶梯</translation>
    </message>
    <message>
        <source>1F1B flushes the pipeline at every optimizer step (a bubble); PipeDream keeps a weight version per microbatch in flight and PipeDream-2BW two, run without a flush and compute with stale weights; needs 1F1B and PP &gt; 1</source>
        <translation>1F1B 在每次优化器更新时刷新流水线（产生气泡）；PipeDream 为每个在途微批保存一份权重版本，PipeDream-2BW 保存两份，二者都不刷新流水线，用陈旧的权重计算；需要 1F1B 且 PP &gt; 1</translation>
    </message>
    <message>
        <source>Pipeline flush</source>
        <translation>流水线刷新方式</translation>
    </message>
    <message>
        <source>TP overlap by</source>
        <translation>TP 重叠实现</translation>
    </message>
    <message>
        <source>Which TP overlap runs: Transformer Engine&apos;s userbuffers (Megatron&apos;s --tp-comm-overlap) or PyTorch&apos;s async TP (torchtitan), which splits each GEMM beside a TP collective into TP chunks, each paying a GEMM&apos;s fixed cost, and leaves the backward&apos;s reduce-scatters after q/k/v and gate/up exposed</source>
        <translation>TP 通信重叠的实现：Transformer Engine 的 userbuffers（Megatron 的 --tp-comm-overlap），或 PyTorch 的异步 TP（torchtitan）：与 TP 集合通信相邻的每个矩阵乘被切成 TP 块，每块都付一次矩阵乘的固定开销；反向中 QKV 投影与 MLP 门控/上投影之后的 ReduceScatter 不被掩盖</translation>
    </message>
    <message>
        <source>Megatron --tp-comm-overlap / PyTorch async TP: each TP collective hides behind the GEMM it feeds or follows (async TP: except the backward&apos;s reduce-scatters, which follow a sum of matmuls)</source>
        <translation>Megatron --tp-comm-overlap / PyTorch 异步 TP：每个 TP 集合通信被其前后的矩阵乘掩盖（异步 TP 例外：反向的 ReduceScatter 接在几个矩阵乘之和后面，无法掩盖）</translation>
    </message>
    <message>
        <source>How the run lays out its activations: sequence first [s, b, h] (Megatron-LM), where SP&apos;s AllGather and ReduceScatter work in place, or batch first [b, s, h] (PyTorch DTensor, torchtitan), where each copies its whole buffer once more to reassemble the sequence</source>
        <translation>激活在显存中的排布：序列维在前 [s, b, h]（Megatron-LM），序列并行的 AllGather 与 ReduceScatter 原地完成；批维在前 [b, s, h]（PyTorch，torchtitan），每次都要把整个缓冲区再读写一遍以重排序列维</translation>
    </message>
    <message>
        <source>Activation layout</source>
        <translation>激活布局</translation>
    </message>
    <message>
        <source>How ZeRO-3 / FSDP holds a layer&apos;s shards: one flat buffer the AllGather writes in place (PyTorch FSDP1, DeepSpeed ZeRO-3, Megatron-FSDP), or each parameter sharded on its own (PyTorch FSDP2, torchtitan), where every AllGather is followed by a copy of the gathered layer into its parameters</source>
        <translation>ZeRO-3 / FSDP 如何保存一层的分片：AllGather 原地写入的一整块扁平缓冲（PyTorch FSDP1 以及 Megatron-LM 的 FSDP 等），或每个参数各自分片（PyTorch FSDP2，torchtitan）：每次 AllGather 之后都要把聚合好的一层再拷贝进各个参数</translation>
    </message>
    <message>
        <source>ZeRO-3 sharding</source>
        <translation>ZeRO-3 分片方式</translation>
    </message>
    <message>
        <source>K/V repeated to every query head</source>
        <translation>K/V 复制到每个查询头</translation>
    </message>
    <message>
        <source>The model code copies the GQA keys and values out to every query head before the attention kernel (repeat_kv, as torchtitan&apos;s Llama did): a copy in the forward and the backward, and CP moves them at the query heads&apos; width</source>
        <translation>模型代码在注意力核之前把分组查询注意力的键和值复制到每个查询头（repeat_kv，torchtitan 的 Llama 曾如此）：前向与反向各多一次拷贝，上下文并行按查询头宽度传输 K/V</translation>
    </message>
    <message>
        <source>DeepEP SMs</source>
        <translation>DeepEP 流多处理器数</translation>
    </message>
    <message>
        <source>Megatron --moe-deepep-num-sms (default 20): the SMs DeepEP&apos;s dispatch and combine kernels hold; the compute beside them runs on the rest, k/(N − k) of the hidden All-to-All time longer</source>
        <translation>Megatron --moe-deepep-num-sms（默认 20）：DeepEP 的分发与合并内核占用的流多处理器（SM）数；与之并行的计算只能用其余的流多处理器，多花被掩盖的 All-to-All 时间的 k/(N − k)</translation>
    </message>
    <message>
        <source>Megatron-LM fuses Q, K and V into one GEMM (linear_qkv) and SwiGLU&apos;s gate and up into another (linear_fc1). Off: one GEMM per weight, as torchtitan&apos;s Llama writes it (wq, wk, wv; w1, w3): each further GEMM pays a GEMM&apos;s fixed cost in every pass (and in every chunk under async TP), and the input gradient adds up the partial products</source>
        <translation>Megatron-LM 把 Q、K、V 融合成一个 GEMM（linear_qkv），把 SwiGLU 的门控与上投影融合成另一个（linear_fc1）。关闭：每个权重各做一次 GEMM，即 torchtitan 的 Llama 写法（wq、wk、wv；w1、w3）：每多一个 GEMM，每一遍（异步 TP 下每一块）都多付一次 GEMM 的固定开销，输入梯度还要把各部分乘积相加</translation>
    </message>
    <message>
        <source>Fused projections (QKV; gate and up)</source>
        <translation>融合投影矩阵乘</translation>
    </message>
    <message>
        <source>Which parts of a layer replay as CUDA graphs (Megatron&apos;s --cuda-graph-impl and --cuda-graph-modules): whole MoE layers need a capacity factor and take the host out; attention and router alone leave the dispatcher and experts eager</source>
        <translation>一层中哪些部分以 CUDA 图重放（Megatron 的 --cuda-graph-impl 与 --cuda-graph-modules）：整个 MoE 层需要设置容量因子，主机不再逐个发射内核；只做注意力与路由时，分发器和专家仍逐个发射</translation>
    </message>
    <message>
        <source>CUDA graphs</source>
        <translation>CUDA 图</translation>
    </message>
</context>
<context>
    <name>parascope::ui::SearchTableModel</name>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>并行布局</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>调度</translation>
    </message>
    <message>
        <source>Step (s)</source>
        <translation>单步耗时（s）</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>Tokens/s</translation>
    </message>
    <message>
        <source>MFU (%)</source>
        <translation>MFU (%)</translation>
    </message>
    <message>
        <source>Peak (GiB)</source>
        <translation>峰值显存（GiB）</translation>
    </message>
    <message>
        <source>Ranked by tokens/s; a tie goes to the lower peak memory, then the simpler layout</source>
        <translation>按 tokens/s 排名；并列时峰值显存较低者优先，其次是更简单的布局</translation>
    </message>
</context>
<context>
    <name>parascope::ui::SearchView</name>
    <message>
        <source>Search all strategies</source>
        <translation>搜索全部策略</translation>
    </message>
    <message>
        <source>strategies that fit (top)</source>
        <translation>可放下的策略（排名靠前）</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>帕累托前沿</translation>
    </message>
    <message>
        <source>best tokens/s</source>
        <translation>吞吐最高</translation>
    </message>
    <message>
        <source>Peak memory per GPU (GiB)</source>
        <translation>每块 GPU 峰值显存（GiB）</translation>
    </message>
    <message>
        <source>Step time (s)</source>
        <translation>单步耗时（s）</translation>
    </message>
    <message>
        <source>Finds every valid TP × PP × DP × CP × EP × ZeRO × micro batch × recompute × schedule for this model on this many GPUs. Double-click a row to apply it.</source>
        <translation>在当前 GPU 数量上为该模型找出所有有效的 TP × PP × DP × CP × EP × ZeRO × 微批大小 × 重计算 × 调度组合。双击一行即可应用。</translation>
    </message>
    <message>
        <source>Evaluating strategies…</source>
        <translation>正在评估各种策略…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>, cancelled</source>
        <translation>，已取消</translation>
    </message>
    <message>
        <source>TP</source>
        <translation>TP</translation>
    </message>
    <message>
        <source>PP</source>
        <translation>PP</translation>
    </message>
    <message>
        <source>best step (s)</source>
        <translation>最短单步耗时（s）</translation>
    </message>
    <message>
        <source>Nearest GPU counts with a valid layout: %1.</source>
        <translation>最接近且存在合法布局的 GPU 数：%1。</translation>
    </message>
    <message>
        <source>Best step (s) per TP × PP, darker = faster. Hatched: nothing fits (OOM: out of memory; —: no valid layout).</source>
        <translation>各 TP × PP 组合的最短单步耗时（s），颜色越深越快。斜线灰格：放不下（OOM：显存溢出；—：无合法布局）。</translation>
    </message>
    <message numerus="yes">
        <source>%1 strategies on %n GPU(s): %2 valid, %3 fit%4 (%5 s). Double-click a row to apply it.</source>
        <translation>
            <numerusform>%n 块 GPU 上共 %1 种策略：%2 种合法，%3 种可放下%4（%5 s）。双击一行即可应用。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>parascope::ui::StatusLabel</name>
    <message>
        <source>Predict first: the numbers are hidden until you reveal your estimate.</source>
        <translation>先预测：揭晓估计之前，数字都被隐藏。</translation>
    </message>
</context>
<context>
    <name>parascope::ui::SweepView</name>
    <message>
        <source>values, e.g. 1,2,4,8,16,32 (empty: sensible values around the current one)</source>
        <translation>取值，例如 1,2,4,8,16,32（留空：当前值附近的合理取值）</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Peak memory per GPU (GiB)</source>
        <translation>每块 GPU 峰值显存（GiB）</translation>
    </message>
    <message>
        <source>GPU capacity (GiB)</source>
        <translation>GPU 显存容量（GiB）</translation>
    </message>
    <message>
        <source>Step time (s)</source>
        <translation>单步耗时（s）</translation>
    </message>
    <message>
        <source>Bubble (idle / step, %)</source>
        <translation>气泡占比（空闲时间/单步耗时，%）</translation>
    </message>
    <message>
        <source>MFU (%)</source>
        <translation>MFU (%)</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>s</source>
        <translation>s</translation>
    </message>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 = %2&lt;/b&gt;%3&lt;br&gt;peak %4 of %5 GiB (stage %6)&lt;br&gt;step %7 s · bubble %8 % · MFU %9 %</source>
        <translation>&lt;b&gt;%1 = %2&lt;/b&gt;%3&lt;br&gt;峰值显存 %4 / %5 GiB（阶段 %6）&lt;br&gt;单步耗时 %7 s · 气泡占比 %8 % · MFU %9 %</translation>
    </message>
    <message>
        <source> — invalid</source>
        <translation> —— 无效</translation>
    </message>
    <message>
        <source>Pick a knob and press Sweep.</source>
        <translation>选择一个参数并点击“扫描”。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Breaking points:&lt;/b&gt; none in this range.</source>
        <translation>&lt;b&gt;临界点：&lt;/b&gt;此范围内没有。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Breaking points:&lt;/b&gt;&lt;br&gt;</source>
        <translation>&lt;b&gt;临界点：&lt;/b&gt;&lt;br&gt;</translation>
    </message>
    <message>
        <source>&lt;i&gt;The scenario changed: updating the sweep…&lt;/i&gt;</source>
        <translation>&lt;i&gt;场景已改变：正在更新扫描……&lt;/i&gt;</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s) · DP %1 · global batch %2</source>
        <translation>
            <numerusform>%n 块 GPU · DP %1 · 全局批大小 %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n 块 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>DP %1</source>
        <translation>DP %1</translation>
    </message>
    <message>
        <source>batch %1</source>
        <translation>全局批大小 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Note:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;注意：&lt;/b&gt;%1</translation>
    </message>
    <message>
        <source>Stability wall (1 − goodput, %)</source>
        <translation>稳定性墙（1 − 有效训练时间占比，%）</translation>
    </message>
    <message>
        <source>How sure: %1</source>
        <translation>可信度：%1</translation>
    </message>
    <message>
        <source>Out of memory: the peak it would need (GiB)</source>
        <translation>显存溢出：所需峰值显存（GiB）</translation>
    </message>
    <message>
        <source>No value runs (✗): see the breaking points below</source>
        <translation>没有可运行的取值（✗）：见下方的临界点</translation>
    </message>
</context>
<context>
    <name>parascope::ui::TextbookView</name>
    <message>
        <source>Quantity</source>
        <translation>量</translation>
    </message>
    <message>
        <source>Textbook formula</source>
        <translation>教材公式</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>The chapter&apos;s shortcuts for this scenario, beside the engine&apos;s number for the same quantity, and what each shortcut leaves out.</source>
        <translation>本场景下教材的简化公式，与引擎对同一量的计算并列，并说明每个简化公式漏掉了什么。</translation>
    </message>
    <message>
        <source>Textbook value</source>
        <translation>教材值</translation>
    </message>
    <message>
        <source>Engine:</source>
        <translation>引擎：</translation>
    </message>
    <message>
        <source>Leaves out:</source>
        <translation>教材未计入：</translation>
    </message>
</context>
<context>
    <name>parascope::ui::TimelineChart</name>
    <message>
        <source>Time in the step (s)</source>
        <translation>步内时间（s）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;rank %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;rank %2</translation>
    </message>
    <message>
        <source>, stage %1 (chunk %2)</source>
        <translation>，阶段 %1（块 %2）</translation>
    </message>
    <message>
        <source>, microbatch %1</source>
        <translation>，微批 %1</translation>
    </message>
    <message>
        <source>&lt;br&gt;start %1, duration %2</source>
        <translation>&lt;br&gt;开始 %1，时长 %2</translation>
    </message>
    <message>
        <source>&lt;br&gt;of which exposed communication %1</source>
        <translation>&lt;br&gt;其中未重叠通信 %1</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source> · showing %1 of %2 microbatches</source>
        <translation> · 显示 %2 个微批中的 %1 个</translation>
    </message>
    <message>
        <source>No simulated timeline: %1</source>
        <translation>无模拟时间线：%1</translation>
    </message>
    <message>
        <source>%1 · step %2</source>
        <translation>%1 · 单步耗时 %2</translation>
    </message>
    <message>
        <source>bubble: simulated %1 %, formula %2 = %3 %</source>
        <translation>气泡占比：模拟 %1 %，公式 %2 = %3 %</translation>
    </message>
    <message>
        <source>A · rank %1</source>
        <translation>A · rank %1</translation>
    </message>
    <message>
        <source>B · rank %1</source>
        <translation>B · rank %1</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B：%1</translation>
    </message>
    <message>
        <source>Slot (a forward = 1, a backward = 2)</source>
        <translation>时隙（前向 = 1，反向 = 2）</translation>
    </message>
    <message numerus="yes">
        <source>Slot grid · %1 · %n microbatch(es)</source>
        <translation>
            <numerusform>时隙网格 · %1 · %n 个微批</numerusform>
        </translation>
    </message>
    <message>
        <source> · %1 of %2 ranks</source>
        <translation> · 显示 %2 个 rank 中的 %1 个</translation>
    </message>
    <message>
        <source>%1 · slow ×%2</source>
        <translation>%1 · 慢 ×%2</translation>
    </message>
    <message>
        <source>, gradient bucket %1 of %2 (%3 end within the backward)</source>
        <translation>，梯度分桶 %1/%2（其中 %3 个在反向结束前完成）</translation>
    </message>
    <message>
        <source>no flush (%1): no bubble; drawn: a flushed step&apos;s ops</source>
        <translation>不刷新（%1）：无气泡；图中为带刷新的单步</translation>
    </message>
</context>
<context>
    <name>parascope::ui::TraceDialog</name>
    <message>
        <source>Measured trace beside the simulation — %1</source>
        <translation>实测跟踪与模拟对比 —— %1</translation>
    </message>
    <message>
        <source>Part of the step</source>
        <translation>单步的组成</translation>
    </message>
    <message>
        <source>Simulated (ms)</source>
        <translation>模拟（ms）</translation>
    </message>
    <message>
        <source>Measured (ms)</source>
        <translation>实测（ms）</translation>
    </message>
    <message>
        <source>Ratio</source>
        <translation>比值</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>, rank %1 of %2</source>
        <translation>，rank %1 / %2</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;: %2, %n step(s) measured, median %3 ms. Simulated: &lt;b&gt;%4&lt;/b&gt;, %5 ms; error %6 %.</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;：%2，实测 %n 步，中位数 %3 ms。模拟：&lt;b&gt;%4&lt;/b&gt;，%5 ms；误差 %6 %。</numerusform>
        </translation>
    </message>
    <message>
        <source>time per step (ms)</source>
        <translation>每步时间（ms）</translation>
    </message>
    <message>
        <source>Measured step</source>
        <translation>实测单步</translation>
    </message>
    <message>
        <source>Simulated step</source>
        <translation>模拟单步</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;: %2, %n step(s) measured, median %3 ms. Simulated: &lt;b&gt;%4&lt;/b&gt;, %5 ms. &lt;b&gt;A different job&lt;/b&gt;: no error is given (see below).</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;：%2，实测 %n 步，中位数 %3 ms。模拟：&lt;b&gt;%4&lt;/b&gt;，%5 ms。&lt;b&gt;不同的作业&lt;/b&gt;：不给出误差（原因见下）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>parascope::ui::WallsChart</name>
    <message>
        <source>share of the wall (%)</source>
        <translation>距墙的比例（%）</translation>
    </message>
    <message>
        <source>the wall</source>
        <translation>墙</translation>
    </message>
</context>
<context>
    <name>parascope::ui::WallsStrip</name>
    <message>
        <source>Invalid configuration</source>
        <translation>配置无效</translation>
    </message>
</context>
</TS>
