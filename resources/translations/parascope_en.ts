<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>About</name>
    <message>
        <source>git revision %1</source>
        <translation>git revision %1</translation>
    </message>
    <message>
        <source>not built from git</source>
        <translation>not built from git</translation>
    </message>
    <message>
        <source>An explorer for parallel LLM training: memory per pipeline stage, communication per collective, the pipeline timeline and what breaks.</source>
        <translation>An explorer for parallel LLM training: memory per pipeline stage, communication per collective, the pipeline timeline and what breaks.</translation>
    </message>
    <message>
        <source>Qt %1 (built with %2), QCustomPlot %3, nlohmann/json %4.%5.%6</source>
        <translation>Qt %1 (built with %2), QCustomPlot %3, nlohmann/json %4.%5.%6</translation>
    </message>
    <message>
        <source>Licensed under the GNU General Public License, version 3 or later.</source>
        <translation>Licensed under the GNU General Public License, version 3 or later.</translation>
    </message>
    <message>
        <source>About ParaScope</source>
        <translation>About ParaScope</translation>
    </message>
</context>
<context>
    <name>ChartExport</name>
    <message>
        <source>folder %1 does not exist</source>
        <translation>folder %1 does not exist</translation>
    </message>
    <message>
        <source>the SVG painter could not start</source>
        <translation>the SVG painter could not start</translation>
    </message>
    <message>
        <source>rendering the %1 failed</source>
        <translation>rendering the %1 failed</translation>
    </message>
    <message>
        <source>size %1×%2 is out of range (%3–%4 pixels a side)</source>
        <translation>size %1×%2 is out of range (%3–%4 pixels a side)</translation>
    </message>
    <message>
        <source>scale %1 is out of range (1–3)</source>
        <translation>scale %1 is out of range (1–3)</translation>
    </message>
    <message>
        <source>%1×%2 at scale %3 is %4 megapixels, over the %5-megapixel budget (e.g. 3840×2160 at 2×, or 1920×1080 at 3×)</source>
        <translation>%1×%2 at scale %3 is %4 megapixels, over the %5-megapixel budget (e.g. 3840×2160 at 2×, or 1920×1080 at 3×)</translation>
    </message>
    <message>
        <source>the PDF painter could not start</source>
        <translation>the PDF painter could not start</translation>
    </message>
    <message>
        <source>cannot write .%1 files: use .png, .svg or .pdf</source>
        <translation>cannot write .%1 files: use .png, .svg or .pdf</translation>
    </message>
    <message>
        <source>writing the SVG&apos;s fonts failed: %1</source>
        <translation>writing the SVG's fonts failed: %1</translation>
    </message>
</context>
<context>
    <name>CollectiveChart</name>
    <message>
        <source>%1 GPUs are too many to draw one by one: the figures below are exact.</source>
        <translation>%1 GPUs are too many to draw one by one: the figures below are exact.</translation>
    </message>
    <message>
        <source>a cell: the part received from that GPU</source>
        <translation>a cell: the part received from that GPU</translation>
    </message>
    <message>
        <source>a cell: a piece of the buffer; darker: summed over more GPUs</source>
        <translation>a cell: a piece of the buffer; darker: summed over more GPUs</translation>
    </message>
    <message>
        <source>a cell: a piece of the buffer</source>
        <translation>a cell: a piece of the buffer</translation>
    </message>
    <message>
        <source>Node %1</source>
        <translation>Node %1</translation>
    </message>
    <message>
        <source>↑ sent so far</source>
        <translation>↑ sent so far</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export chart</source>
        <translation>Export chart</translation>
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
        <translation>Size</translation>
    </message>
    <message>
        <source>PNG scale</source>
        <translation>PNG scale</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG vector image (*.svg);;PDF (*.pdf)</source>
        <translation>PNG image (*.png);;SVG vector image (*.svg);;PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Title line with the model, GPUs and layout</source>
        <translation>Title line with the model, GPUs and layout</translation>
    </message>
</context>
<context>
    <name>Format</name>
    <message>
        <source>%1 · %2 × %3 · %4 · micro batch %5 · global batch %6 · %7</source>
        <translation>%1 · %2 × %3 · %4 · micro batch %5 · global batch %6 · %7</translation>
    </message>
</context>
<context>
    <name>Knobs</name>
    <message>
        <source>Sequence length</source>
        <translation>Sequence length</translation>
    </message>
    <message>
        <source>Micro batch</source>
        <translation>Micro batch</translation>
    </message>
    <message>
        <source>Global batch</source>
        <translation>Global batch</translation>
    </message>
    <message>
        <source>Tensor parallel (TP)</source>
        <translation>Tensor parallel (TP)</translation>
    </message>
    <message>
        <source>Pipeline parallel (PP)</source>
        <translation>Pipeline parallel (PP)</translation>
    </message>
    <message>
        <source>Virtual stages (VPP)</source>
        <translation>Virtual stages (VPP)</translation>
    </message>
    <message>
        <source>Data parallel (DP)</source>
        <translation>Data parallel (DP)</translation>
    </message>
    <message>
        <source>Context parallel (CP)</source>
        <translation>Context parallel (CP)</translation>
    </message>
    <message>
        <source>Expert parallel (EP)</source>
        <translation>Expert parallel (EP)</translation>
    </message>
    <message>
        <source>ZeRO stage</source>
        <translation>ZeRO stage</translation>
    </message>
    <message>
        <source>GPUs (more data-parallel replicas, same microbatches each)</source>
        <translation>GPUs (more data-parallel replicas, same microbatches each)</translation>
    </message>
    <message>
        <source>GPUs (more data-parallel replicas, same global batch)</source>
        <translation>GPUs (more data-parallel replicas, same global batch)</translation>
    </message>
    <message>
        <source>NCCL timeout (min)</source>
        <translation>NCCL timeout (min)</translation>
    </message>
    <message>
        <source>Straggler slowdown (%)</source>
        <translation>Straggler slowdown (%)</translation>
    </message>
    <message>
        <source>Straggler&apos;s stage</source>
        <translation>Straggler's stage</translation>
    </message>
    <message>
        <source>Degraded link (%)</source>
        <translation>Degraded link (%)</translation>
    </message>
    <message>
        <source>Hangs per week</source>
        <translation>Hangs per week</translation>
    </message>
    <message>
        <source>Loss spikes per week</source>
        <translation>Loss spikes per week</translation>
    </message>
    <message>
        <source>PowerSGD rank</source>
        <translation>PowerSGD rank</translation>
    </message>
    <message>
        <source>Top-k kept (‰)</source>
        <translation>Top-k kept (‰)</translation>
    </message>
    <message>
        <source>ZeRO-3 prefetch depth (layers)</source>
        <translation>ZeRO-3 prefetch depth (layers)</translation>
    </message>
    <message>
        <source>NICs per node (0: one per GPU)</source>
        <translation>NICs per node (0: one per GPU)</translation>
    </message>
    <message>
        <source>Nodes per leaf switch (0: non-blocking)</source>
        <translation>Nodes per leaf switch (0: non-blocking)</translation>
    </message>
    <message>
        <source>Leaf uplink oversubscription (o:1)</source>
        <translation>Leaf uplink oversubscription (o:1)</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>parascope-probe is not installed: it is built only where the CUDA Toolkit is found.</source>
        <translation>parascope-probe is not installed: it is built only where the CUDA Toolkit is found.</translation>
    </message>
    <message>
        <source>Measuring this machine (parascope-probe --quick)…</source>
        <translation>Measuring this machine (parascope-probe --quick)…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <source>parascope-probe did not start: %1</source>
        <translation>parascope-probe did not start: %1</translation>
    </message>
    <message>
        <source>parascope-probe was stopped or crashed</source>
        <translation>parascope-probe was stopped or crashed</translation>
    </message>
    <message>
        <source>No usable GPU on this machine: %1</source>
        <translation>No usable GPU on this machine: %1</translation>
    </message>
    <message>
        <source>parascope-probe failed (exit code %1)</source>
        <translation>parascope-probe failed (exit code %1)</translation>
    </message>
    <message>
        <source>Recover scenario</source>
        <translation>Recover scenario</translation>
    </message>
    <message>
        <source>ParaScope did not close properly on %1. Restore the scenario it was working on?</source>
        <translation>ParaScope did not close properly on %1. Restore the scenario it was working on?</translation>
    </message>
    <message>
        <source>Other unsaved scenarios, kept until you answer for each: %1</source>
        <translation>Other unsaved scenarios, kept until you answer for each: %1</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Restore</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Discard</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Later</translation>
    </message>
    <message>
        <source>INVALID</source>
        <translation>INVALID</translation>
    </message>
    <message>
        <source>Step %1 · %2 tokens/s · MFU %3 % · peak %4 / %5 GiB (stage %6)</source>
        <translation>Step %1 · %2 tokens/s · MFU %3 % · peak %4 / %5 GiB (stage %6)</translation>
    </message>
    <message>
        <source>&lt;b&gt;calibrated&lt;/b&gt; · </source>
        <translation>&lt;b&gt;calibrated&lt;/b&gt; · </translation>
    </message>
    <message>
        <source>OUT OF MEMORY</source>
        <translation>OUT OF MEMORY</translation>
    </message>
    <message>
        <source> · vs A: step %1, tokens/s %2, peak %3</source>
        <translation> · vs A: step %1, tokens/s %2, peak %3</translation>
    </message>
    <message>
        <source> · CPU offload %1 / %2 GiB per node</source>
        <translation> · CPU offload %1 / %2 GiB per node</translation>
    </message>
    <message>
        <source>MEMORY BORDERLINE (±%1 GiB)</source>
        <translation>MEMORY BORDERLINE (±%1 GiB)</translation>
    </message>
    <message>
        <source>How sure: %1; tokens/s and MFU alike.</source>
        <translation>How sure: %1; tokens/s and MFU alike.</translation>
    </message>
</context>
<context>
    <name>MemoryChart</name>
    <message>
        <source>Weights</source>
        <translation>Weights</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>Gradients</translation>
    </message>
    <message>
        <source>Optimizer states</source>
        <translation>Optimizer states</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>Activations</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Other</translation>
    </message>
</context>
<context>
    <name>SaveFile</name>
    <message>
        <source>only %1 of %2 bytes reached the disk (disk full or file too large?)</source>
        <translation>only %1 of %2 bytes reached the disk (disk full or file too large?)</translation>
    </message>
    <message>
        <source>%1 is a folder</source>
        <translation>%1 is a folder</translation>
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
        <translation>%1: best step %2 s %3 (%4 tokens/s)</translation>
    </message>
    <message>
        <source>%1: every valid layout runs out of memory</source>
        <translation>%1: every valid layout runs out of memory</translation>
    </message>
    <message>
        <source>%1: no valid layout on this many GPUs</source>
        <translation>%1: no valid layout on this many GPUs</translation>
    </message>
</context>
<context>
    <name>TimelineChart</name>
    <message>
        <source>Forward</source>
        <translation>Forward</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>Backward</translation>
    </message>
    <message>
        <source>Backward (input)</source>
        <translation>Backward (input)</translation>
    </message>
    <message>
        <source>Backward (weight)</source>
        <translation>Backward (weight)</translation>
    </message>
    <message>
        <source>Forward &amp; backward overlapped</source>
        <translation>Forward &amp; backward overlapped</translation>
    </message>
    <message>
        <source>Send / receive</source>
        <translation>Send / receive</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimizer</translation>
    </message>
    <message>
        <source>Collective (DP)</source>
        <translation>Collective (DP)</translation>
    </message>
</context>
<context>
    <name>Walls</name>
    <message>
        <source>Memory wall</source>
        <translation>Memory wall</translation>
    </message>
    <message>
        <source>Communication wall</source>
        <translation>Communication wall</translation>
    </message>
    <message>
        <source>Efficiency wall</source>
        <translation>Efficiency wall</translation>
    </message>
    <message>
        <source>Stability wall</source>
        <translation>Stability wall</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Memory</translation>
    </message>
    <message>
        <source>Comm.</source>
        <translation>Comm.</translation>
    </message>
    <message>
        <source>Efficiency</source>
        <translation>Efficiency</translation>
    </message>
    <message>
        <source>Stability</source>
        <translation>Stability</translation>
    </message>
</context>
<context>
    <name>parascope::ui</name>
    <message>
        <source>Peak memory per GPU</source>
        <translation>Peak memory per GPU</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>Step time</translation>
    </message>
    <message>
        <source>Bubble (the simulated timeline)</source>
        <translation>Bubble (the simulated timeline)</translation>
    </message>
    <message>
        <source>Bubble (the schedule&apos;s formula)</source>
        <translation>Bubble (the schedule's formula)</translation>
    </message>
    <message>
        <source>Exposed communication / step</source>
        <translation>Exposed communication / step</translation>
    </message>
    <message>
        <source>GiB each GPU sends in DP collectives per step</source>
        <translation>GiB each GPU sends in DP collectives per step</translation>
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
        <translation>ok</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>changed</translation>
    </message>
    <message>
        <source>look</source>
        <translation>look</translation>
    </message>
    <message>
        <source>Walking the decision procedure…</source>
        <translation>Walking the decision procedure…</translation>
    </message>
    <message>
        <source>Advisor: the decision procedure</source>
        <translation>Advisor: the decision procedure</translation>
    </message>
    <message>
        <source>Use this layout</source>
        <translation>Use this layout</translation>
    </message>
    <message>
        <source>Use the search&apos;s best</source>
        <translation>Use the search's best</translation>
    </message>
    <message>
        <source>The course&apos;s decision procedure on %1, %2 GPUs, global batch %3: each step with what it found and why.</source>
        <translation>The course's decision procedure on %1, %2 GPUs, global batch %3: each step with what it found and why.</translation>
    </message>
    <message>
        <source>Why: </source>
        <translation>Why: </translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Result</translation>
    </message>
    <message>
        <source>step %1, peak %2 GiB</source>
        <translation>step %1, peak %2 GiB</translation>
    </message>
    <message>
        <source>does not fit: peak %1 GiB</source>
        <translation>does not fit: peak %1 GiB</translation>
    </message>
    <message>
        <source>Against the strategy search</source>
        <translation>Against the strategy search</translation>
    </message>
    <message>
        <source>Yours</source>
        <translation>Yours</translation>
    </message>
    <message>
        <source>The procedure</source>
        <translation>The procedure</translation>
    </message>
    <message>
        <source>The search</source>
        <translation>The search</translation>
    </message>
    <message>
        <source>Report card</source>
        <translation>Report card</translation>
    </message>
    <message>
        <source>Memory headroom</source>
        <translation>Memory headroom</translation>
    </message>
    <message>
        <source>Exposed communication</source>
        <translation>Exposed communication</translation>
    </message>
    <message>
        <source>Bubble + uneven stages</source>
        <translation>Bubble + uneven stages</translation>
    </message>
    <message>
        <source>Stability (1 − goodput)</source>
        <translation>Stability (1 − goodput)</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Step</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CalibrationDialog</name>
    <message>
        <source>Calibrate from a hardware profile</source>
        <translation>Calibrate from a hardware profile</translation>
    </message>
    <message>
        <source>Measured on &lt;b&gt;%1&lt;/b&gt; (profile status: %2). Measured numbers replace the datasheet-derived defaults of &lt;b&gt;%3&lt;/b&gt;; memory is unaffected, times change.</source>
        <translation>Measured on &lt;b&gt;%1&lt;/b&gt; (profile status: %2). Measured numbers replace the datasheet-derived defaults of &lt;b&gt;%3&lt;/b&gt;; memory is unaffected, times change.</translation>
    </message>
    <message>
        <source>GEMM efficiency (of the dense bf16 peak)</source>
        <translation>GEMM efficiency (of the dense bf16 peak)</translation>
    </message>
    <message>
        <source>HBM efficiency (of the datasheet bandwidth)</source>
        <translation>HBM efficiency (of the datasheet bandwidth)</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>GPU memory</translation>
    </message>
    <message>
        <source>NVLink efficiency (busbw / link)</source>
        <translation>NVLink efficiency (busbw / link)</translation>
    </message>
    <message>
        <source>Network efficiency (busbw per GPU / NIC)</source>
        <translation>Network efficiency (busbw per GPU / NIC)</translation>
    </message>
    <message>
        <source>Measured collective points</source>
        <translation>Measured collective points</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>Quantity</translation>
    </message>
    <message>
        <source>Datasheet</source>
        <translation>Datasheet</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>Measured</translation>
    </message>
    <message>
        <source>(not measured)</source>
        <translation>(not measured)</translation>
    </message>
</context>
<context>
    <name>parascope::ui::ChartView</name>
    <message>
        <source>Invalid configuration</source>
        <translation>Invalid configuration</translation>
    </message>
</context>
<context>
    <name>parascope::ui::ClassAnswersDialog</name>
    <message>
        <source>Class answers</source>
        <translation>Class answers</translation>
    </message>
    <message>
        <source>%1, step %2: %3 (%4 answers)</source>
        <translation>%1, step %2: %3 (%4 answers)</translation>
    </message>
    <message>
        <source>answers (the engine today: %1 %2)</source>
        <translation>answers (the engine today: %1 %2)</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CollectiveChart</name>
    <message numerus="yes">
        <source>%1 %2 of %3 on %n GPU(s)</source>
        <translation>
            <numerusform>%1 %2 of %3 on %n GPU</numerusform>
            <numerusform>%1 %2 of %3 on %n GPUs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n node(s)</source>
        <translation>
            <numerusform> · %n node</numerusform>
            <numerusform> · %n nodes</numerusform>
        </translation>
    </message>
    <message>
        <source> · %1 per node</source>
        <translation> · %1 per node</translation>
    </message>
    <message numerus="yes">
        <source>Done: %n step(s) in %1</source>
        <translation>
            <numerusform>Done: %n step in %1</numerusform>
            <numerusform>Done: %n steps in %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Step %1 of %2 · %3 · %4 → %5</source>
        <translation>Step %1 of %2 · %3 · %4 → %5</translation>
    </message>
    <message numerus="yes">
        <source> · %n send(s) of %1</source>
        <translation>
            <numerusform> · %n send of %1</numerusform>
            <numerusform> · %n sends of %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Each GPU sends %1 (%2). The textbook&apos;s 2·S·n = %3 is the total over all %4 GPUs, not one GPU&apos;s traffic; a parameter server would move %5 through its one server.</source>
        <translation>Each GPU sends %1 (%2). The textbook's 2·S·n = %3 is the total over all %4 GPUs, not one GPU's traffic; a parameter server would move %5 through its one server.</translation>
    </message>
    <message>
        <source>Each GPU sends at most %1 (%2).</source>
        <translation>Each GPU sends at most %1 (%2).</translation>
    </message>
    <message>
        <source>Time %1 by the α–β model on these links · algbw %2 · busbw %3, as nccl-tests prints them</source>
        <translation>Time %1 by the α–β model on these links · algbw %2 · busbw %3, as nccl-tests prints them</translation>
    </message>
    <message>
        <source>From the communication chart: %1, one call of the step.</source>
        <translation>From the communication chart: %1, one call of the step.</translation>
    </message>
    <message>
        <source>The group has %1 GPUs; the walkthrough is made for at most %2, and shows that many.</source>
        <translation>The group has %1 GPUs; the walkthrough is made for at most %2, and shows that many.</translation>
    </message>
    <message>
        <source>NCCL&apos;s ring: %1 channels, one per NIC, each with S/%1; the diagram plays channel 1, every step timed with all channels sharing the links.</source>
        <translation>NCCL's ring: %1 channels, one per NIC, each with S/%1; the diagram plays channel 1, every step timed with all channels sharing the links.</translation>
    </message>
    <message>
        <source>The engine (the communication chart) runs this collective by %1 too: the same %2.</source>
        <translation>The engine (the communication chart) runs this collective by %1 too: the same %2.</translation>
    </message>
    <message>
        <source>The engine would run %1 here: %2; this form takes %3× as long.</source>
        <translation>The engine would run %1 here: %2; this form takes %3× as long.</translation>
    </message>
    <message>
        <source>Teaching version, not what NCCL runs.</source>
        <translation>Teaching version, not what NCCL runs.</translation>
    </message>
    <message>
        <source>The same on these GPUs: %1 (fastest: %2; teaching forms marked *)</source>
        <translation>The same on these GPUs: %1 (fastest: %2; teaching forms marked *)</translation>
    </message>
    <message>
        <source>Bandwidth ladder, %1:</source>
        <translation>Bandwidth ladder, %1:</translation>
    </message>
    <message>
        <source>Bandwidth ladder: %1 GB/s (both ways → one way → per GPU → achievable → algbw → busbw; hover the diagram for each step)</source>
        <translation>Bandwidth ladder: %1 GB/s (both ways → one way → per GPU → achievable → algbw → busbw; hover the diagram for each step)</translation>
    </message>
    <message>
        <source>DeepEP sends a token once to each other GPU that holds any of its experts, and across nodes once to each other node (NVLink forwards it there); the exchange shown sends one copy per expert.</source>
        <translation>DeepEP sends a token once to each other GPU that holds any of its experts, and across nodes once to each other node (NVLink forwards it there); the exchange shown sends one copy per expert.</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CollectivesView</name>
    <message>
        <source>Operation</source>
        <translation>Operation</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Size</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>per node</source>
        <translation>per node</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>Algorithm</translation>
    </message>
    <message>
        <source>The buffer S, as nccl-tests&apos; size column (for an all-gather: the gathered output)</source>
        <translation>The buffer S, as nccl-tests' size column (for an all-gather: the gathered output)</translation>
    </message>
    <message>
        <source>GPUs of the group in each node: a data-parallel group across nodes often has one</source>
        <translation>GPUs of the group in each node: a data-parallel group across nodes often has one</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Start</translation>
    </message>
    <message>
        <source>◀ Step</source>
        <translation>◀ Step</translation>
    </message>
    <message>
        <source>Step ▶</source>
        <translation>Step ▶</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Play</translation>
    </message>
    <message>
        <source>Drag to move through the steps</source>
        <translation>Drag to move through the steps</translation>
    </message>
    <message>
        <source>%1 has no step-by-step form: the Collectives tab shows AllReduce, AllGather, ReduceScatter, All-to-All and broadcast</source>
        <translation>%1 has no step-by-step form: the Collectives tab shows AllReduce, AllGather, ReduceScatter, All-to-All and broadcast</translation>
    </message>
    <message>
        <source>%1 (teaching)</source>
        <translation>%1 (teaching)</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CommChart</name>
    <message>
        <source>A: exposed (pinned)</source>
        <translation>A: exposed (pinned)</translation>
    </message>
    <message>
        <source>On the link</source>
        <translation>On the link</translation>
    </message>
    <message>
        <source>Exposed (not overlapped)</source>
        <translation>Exposed (not overlapped)</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;a group of %n GPU(s)</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;a group of %n GPU</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;a group of %n GPUs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> on %n node(s)</source>
        <translation>
            <numerusform> on %n node</numerusform>
            <numerusform> on %n nodes</numerusform>
        </translation>
    </message>
    <message>
        <source>; %1 calls of %2; %3 sent per GPU per step</source>
        <translation>; %1 calls of %2; %3 sent per GPU per step</translation>
    </message>
    <message>
        <source>%1, all exposed</source>
        <translation>%1, all exposed</translation>
    </message>
    <message>
        <source>%1, exposed %2</source>
        <translation>%1, exposed %2</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n call(s)</source>
        <translation>
            <numerusform>%1 · %n call</numerusform>
            <numerusform>%1 · %n calls</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The other %n collective(s)</source>
        <translation>
            <numerusform>The other %n collective</numerusform>
            <numerusform>The other %n collectives</numerusform>
        </translation>
    </message>
    <message>
        <source>Time per step (ms)</source>
        <translation>Time per step (ms)</translation>
    </message>
    <message>
        <source>Time per step (s)</source>
        <translation>Time per step (s)</translation>
    </message>
    <message numerus="yes">
        <source>%1
%n more: double-click</source>
        <translation>
            <numerusform>%1
%n more: double-click</numerusform>
            <numerusform>%1
%n more: double-click</numerusform>
        </translation>
    </message>
    <message>
        <source>Stage boundaries (from → to, link, one send):</source>
        <translation>Stage boundaries (from → to, link, one send):</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… and %n more</numerusform>
            <numerusform>… and %n more</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2 · %3 · %4 · %5 %6 GB/s</source>
        <translation>%1 %2 · %3 · %4 · %5 %6 GB/s</translation>
    </message>
    <message>
        <source>, by the %1 algorithm at a bus bandwidth of %2 GB/s (nccl-tests&apos; busbw: factor·S/t)</source>
        <translation>, by the %1 algorithm at a bus bandwidth of %2 GB/s (nccl-tests' busbw: factor·S/t)</translation>
    </message>
    <message>
        <source>Bandwidth ladder, %1:</source>
        <translation>Bandwidth ladder, %1:</translation>
    </message>
    <message>
        <source>One GPU: nothing to communicate</source>
        <translation>One GPU: nothing to communicate</translation>
    </message>
    <message>
        <source>No collectives in this layout</source>
        <translation>No collectives in this layout</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CompareController</name>
    <message>
        <source>Compare with a measured trace</source>
        <translation>Compare with a measured trace</translation>
    </message>
    <message>
        <source>PyTorch profiler traces (*.json)</source>
        <translation>PyTorch profiler traces (*.json)</translation>
    </message>
    <message>
        <source>&amp;Pin as A (compare)</source>
        <translation>&amp;Pin as A (compare)</translation>
    </message>
    <message>
        <source>&amp;Clear pin</source>
        <translation>&amp;Clear pin</translation>
    </message>
    <message>
        <source>Compare with a &amp;measured trace (PyTorch profiler)…</source>
        <translation>Compare with a &amp;measured trace (PyTorch profiler)…</translation>
    </message>
    <message>
        <source>A Chrome trace from torch.profiler beside the simulated step of this scenario: step time, GEMMs, attention, communication, idle</source>
        <translation>A Chrome trace from torch.profiler beside the simulated step of this scenario: step time, GEMMs, attention, communication, idle</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>Reading %1…</translation>
    </message>
    <message>
        <source>Which GPU?</source>
        <translation>Which GPU?</translation>
    </message>
    <message>
        <source>GPU to compare:</source>
        <translation>GPU to compare:</translation>
    </message>
    <message>
        <source>Cannot read the trace</source>
        <translation>Cannot read the trace</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV table (*.csv)</translation>
    </message>
    <message>
        <source>Export comparison table</source>
        <translation>Export comparison table</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>Could not write %1: %2</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>Exported %1</translation>
    </message>
    <message>
        <source>nothing is pinned as A (Scenario → Pin as A)</source>
        <translation>nothing is pinned as A (Scenario → Pin as A)</translation>
    </message>
    <message>
        <source>Export &amp;comparison table (CSV)…</source>
        <translation>Export &amp;comparison table (CSV)…</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CompareTable</name>
    <message>
        <source>B vs A</source>
        <translation>B vs A</translation>
    </message>
    <message>
        <source> pts</source>
        <translation> pts</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>Scenario</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>Step time</translation>
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
        <translation>Peak memory (GiB)</translation>
    </message>
    <message>
        <source>Bubble (simulated)</source>
        <translation>Bubble (simulated)</translation>
    </message>
    <message>
        <source>Exposed communication</source>
        <translation>Exposed communication</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CourseController</name>
    <message>
        <source>&amp;Next lesson step</source>
        <translation>&amp;Next lesson step</translation>
    </message>
    <message>
        <source>&amp;Advisor: the decision procedure…</source>
        <translation>&amp;Advisor: the decision procedure…</translation>
    </message>
    <message>
        <source>Does it fit with DP? Then ZeRO; TP inside a node, PP across nodes; communication; bubble — step by step, beside the strategy search&apos;s best</source>
        <translation>Does it fit with DP? Then ZeRO; TP inside a node, PP across nodes; communication; bubble — step by step, beside the strategy search's best</translation>
    </message>
    <message>
        <source>&lt;p&gt;Pick a lesson in the scenario panel to read what it shows.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Pick a lesson in the scenario panel to read what it shows.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;i&gt;Step %1 of %2: %3 — Scenario → Next lesson step (Ctrl+→)&lt;/i&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;i&gt;Step %1 of %2: %3 — Scenario → Next lesson step (Ctrl+→)&lt;/i&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Exercise: predict the number asked below, then Reveal. The charts and this step&apos;s text stay hidden until you do.</source>
        <translation>Exercise: predict the number asked below, then Reveal. The charts and this step's text stay hidden until you do.</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n answer(s) to %1</source>
        <translation>
            <numerusform>Exported %n answer to %1</numerusform>
            <numerusform>Exported %n answers to %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Back to the lesson&apos;s first step</source>
        <translation>Back to the lesson's first step</translation>
    </message>
    <message>
        <source>&amp;Restore this lesson step</source>
        <translation>&amp;Restore this lesson step</translation>
    </message>
    <message>
        <source>Put every knob back as this lesson step set it</source>
        <translation>Put every knob back as this lesson step set it</translation>
    </message>
    <message>
        <source>That was the lesson&apos;s last step: back to step 1</source>
        <translation>That was the lesson's last step: back to step 1</translation>
    </message>
    <message>
        <source>Class answers</source>
        <translation>Class answers</translation>
    </message>
    <message>
        <source>Exercise answers (*.csv)</source>
        <translation>Exercise answers (*.csv)</translation>
    </message>
    <message>
        <source>&amp;Class answers…</source>
        <translation>&amp;Class answers…</translation>
    </message>
    <message>
        <source>The students&apos; exported exercise answers (CSV) as a histogram per exercise, with the typical mistake of each bar</source>
        <translation>The students' exported exercise answers (CSV) as a histogram per exercise, with the typical mistake of each bar</translation>
    </message>
    <message>
        <source>%1: cannot be read (%2)</source>
        <translation>%1: cannot be read (%2)</translation>
    </message>
    <message>
        <source>These lines were left out:
%1</source>
        <translation>These lines were left out:
%1</translation>
    </message>
    <message>
        <source>no answers in the files</source>
        <translation>no answers in the files</translation>
    </message>
    <message>
        <source>Open a lesson file</source>
        <translation>Open a lesson file</translation>
    </message>
    <message>
        <source>Lesson (*.json)</source>
        <translation>Lesson (*.json)</translation>
    </message>
    <message>
        <source>&amp;Write an exercise from the screen…</source>
        <translation>&amp;Write an exercise from the screen…</translation>
    </message>
    <message>
        <source>Pick a quantity the window shows, write the question and save it as a lesson step</source>
        <translation>Pick a quantity the window shows, write the question and save it as a lesson step</translation>
    </message>
    <message>
        <source>&amp;Open a lesson file…</source>
        <translation>&amp;Open a lesson file…</translation>
    </message>
</context>
<context>
    <name>parascope::ui::CustomModelDialog</name>
    <message>
        <source>Custom model</source>
        <translation>Custom model</translation>
    </message>
    <message>
        <source>A model is a JSON object with the fields of a preset (layers, hidden, heads, kv_heads, ffn_hidden, vocab, mlp, norm, bias, tied_embeddings, position, moe) and, where the model has them, qkv_bias, qk_norm, attention_sinks, parallel_block, sliding_window, mla and mtp_modules (README, &quot;Scenario files&quot;).</source>
        <translation>A model is a JSON object with the fields of a preset (layers, hidden, heads, kv_heads, ffn_hidden, vocab, mlp, norm, bias, tied_embeddings, position, moe) and, where the model has them, qkv_bias, qk_norm, attention_sinks, parallel_block, sliding_window, mla and mtp_modules (README, "Scenario files").</translation>
    </message>
</context>
<context>
    <name>parascope::ui::DesignTaskPanel</name>
    <message>
        <source>Your layout:</source>
        <translation>Your layout:</translation>
    </message>
    <message>
        <source>Revealed</source>
        <translation>Revealed</translation>
    </message>
    <message>
        <source>The Advisor (the decision procedure): %1, %2 days</source>
        <translation>The Advisor (the decision procedure): %1, %2 days</translation>
    </message>
    <message>
        <source>The strategy search: %1, %2 days</source>
        <translation>The strategy search: %1, %2 days</translation>
    </message>
    <message>
        <source>Tools → Advisor (Ctrl+D) walks the procedure step by step; move a slider and hand in again.</source>
        <translation>Tools → Advisor (Ctrl+D) walks the procedure step by step; move a slider and hand in again.</translation>
    </message>
    <message>
        <source>Design task</source>
        <translation>Design task</translation>
    </message>
    <message>
        <source>Hand in again</source>
        <translation>Hand in again</translation>
    </message>
    <message>
        <source>Hand in my layout</source>
        <translation>Hand in my layout</translation>
    </message>
    <message>
        <source>Grading: the Advisor and the search are still working on these GPUs…</source>
        <translation>Grading: the Advisor and the search are still working on these GPUs…</translation>
    </message>
    <message>
        <source>Set TP, PP, DP, ZeRO, recompute and the micro batch with the sliders, then hand in. The Advisor&apos;s and the search&apos;s answers are revealed after.</source>
        <translation>Set TP, PP, DP, ZeRO, recompute and the micro batch with the sliders, then hand in. The Advisor's and the search's answers are revealed after.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>parascope::ui::DiagnosticsPanel</name>
    <message numerus="yes">
        <source>, %n warning(s)</source>
        <translation>
            <numerusform>, %n warning</numerusform>
            <numerusform>, %n warnings</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;What would fix it:&lt;/b&gt; evaluating changes…</source>
        <translation>&lt;b&gt;What would fix it:&lt;/b&gt; evaluating changes…</translation>
    </message>
    <message>
        <source>Double-click to apply this change</source>
        <translation>Double-click to apply this change</translation>
    </message>
    <message>
        <source>&lt;b&gt;What would fix it:&lt;/b&gt; no single change on these GPUs fixes it without breaking something else.</source>
        <translation>&lt;b&gt;What would fix it:&lt;/b&gt; no single change on these GPUs fixes it without breaking something else.</translation>
    </message>
    <message>
        <source>&lt;b&gt;What would fix it&lt;/b&gt; (each change evaluated; double-click to apply):</source>
        <translation>&lt;b&gt;What would fix it&lt;/b&gt; (each change evaluated; double-click to apply):</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n GPU</numerusform>
            <numerusform>%n GPUs</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;What breaks&lt;/b&gt; (%1): nothing — valid and fits.</source>
        <translation>&lt;b&gt;What breaks&lt;/b&gt; (%1): nothing — valid and fits.</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;What breaks&lt;/b&gt; (%1): %n error(s)</source>
        <translation>
            <numerusform>&lt;b&gt;What breaks&lt;/b&gt; (%1): %n error</numerusform>
            <numerusform>&lt;b&gt;What breaks&lt;/b&gt; (%1): %n errors</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>parascope::ui::ExerciseEditorDialog</name>
    <message>
        <source>weights</source>
        <translation>weights</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>gradients</translation>
    </message>
    <message>
        <source>optimizer states</source>
        <translation>optimizer states</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>activations</translation>
    </message>
    <message>
        <source>other</source>
        <translation>other</translation>
    </message>
    <message>
        <source>total</source>
        <translation>total</translation>
    </message>
    <message>
        <source>Stage %1 memory: %2</source>
        <translation>Stage %1 memory: %2</translation>
    </message>
    <message>
        <source>%1 %2 (%3): time per step</source>
        <translation>%1 %2 (%3): time per step</translation>
    </message>
    <message>
        <source>Write an exercise from the screen</source>
        <translation>Write an exercise from the screen</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>Quantity</translation>
    </message>
    <message>
        <source>The engine now</source>
        <translation>The engine now</translation>
    </message>
    <message>
        <source>Question (English)</source>
        <translation>Question (English)</translation>
    </message>
    <message>
        <source>Question (Chinese)</source>
        <translation>Question (Chinese)</translation>
    </message>
    <message>
        <source>How to work it out (English)</source>
        <translation>How to work it out (English)</translation>
    </message>
    <message>
        <source>How to work it out (Chinese)</source>
        <translation>How to work it out (Chinese)</translation>
    </message>
    <message>
        <source>Step label (English)</source>
        <translation>Step label (English)</translation>
    </message>
    <message>
        <source>Step label (Chinese)</source>
        <translation>Step label (Chinese)</translation>
    </message>
    <message>
        <source>An estimate this close to the engine&apos;s value, relatively, counts as right</source>
        <translation>An estimate this close to the engine's value, relatively, counts as right</translation>
    </message>
    <message>
        <source>Tolerance</source>
        <translation>Tolerance</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Browse…</translation>
    </message>
    <message>
        <source>Lesson file</source>
        <translation>Lesson file</translation>
    </message>
    <message>
        <source>only for a new file</source>
        <translation>only for a new file</translation>
    </message>
    <message>
        <source>New lesson&apos;s title</source>
        <translation>New lesson's title</translation>
    </message>
    <message>
        <source>Saved as step %1 of %2: Tools → Open a lesson file… shows it</source>
        <translation>Saved as step %1 of %2: Tools → Open a lesson file… shows it</translation>
    </message>
    <message>
        <source>Lesson (*.json)</source>
        <translation>Lesson (*.json)</translation>
    </message>
    <message>
        <source>Pick a quantity first.</source>
        <translation>Pick a quantity first.</translation>
    </message>
    <message>
        <source>Choose the lesson file to save to.</source>
        <translation>Choose the lesson file to save to.</translation>
    </message>
</context>
<context>
    <name>parascope::ui::ExercisePanel</name>
    <message>
        <source>Type your estimate first: a number.</source>
        <translation>Type your estimate first: a number.</translation>
    </message>
    <message>
        <source>Formula: </source>
        <translation>Formula: </translation>
    </message>
    <message>
        <source>Predict, then reveal</source>
        <translation>Predict, then reveal</translation>
    </message>
    <message>
        <source>Reveal</source>
        <translation>Reveal</translation>
    </message>
    <message>
        <source>your estimate</source>
        <translation>your estimate</translation>
    </message>
</context>
<context>
    <name>parascope::ui::ExportController</name>
    <message>
        <source>Memory chart copied to the clipboard</source>
        <translation>Memory chart copied to the clipboard</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>Export report</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export exercise results</source>
        <translation>Export exercise results</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Export Chrome trace</source>
        <translation>Export Chrome trace</translation>
    </message>
    <message>
        <source>Trace (*.json)</source>
        <translation>Trace (*.json)</translation>
    </message>
    <message>
        <source>&amp;Export chart</source>
        <translation>&amp;Export chart</translation>
    </message>
    <message>
        <source>Memory chart…</source>
        <translation>Memory chart…</translation>
    </message>
    <message>
        <source>Timeline chart…</source>
        <translation>Timeline chart…</translation>
    </message>
    <message>
        <source>Communication chart…</source>
        <translation>Communication chart…</translation>
    </message>
    <message>
        <source>Sweep chart…</source>
        <translation>Sweep chart…</translation>
    </message>
    <message>
        <source>Search (Pareto) chart…</source>
        <translation>Search (Pareto) chart…</translation>
    </message>
    <message>
        <source>Slot grid of the schedule…</source>
        <translation>Slot grid of the schedule…</translation>
    </message>
    <message>
        <source>The four walls…</source>
        <translation>The four walls…</translation>
    </message>
    <message>
        <source>The collective at this step…</source>
        <translation>The collective at this step…</translation>
    </message>
    <message>
        <source>Memory over the step…</source>
        <translation>Memory over the step…</translation>
    </message>
    <message>
        <source>&amp;Copy memory chart</source>
        <translation>&amp;Copy memory chart</translation>
    </message>
    <message>
        <source>Export report (JSON)…</source>
        <translation>Export report (JSON)…</translation>
    </message>
    <message>
        <source>Export exercise results (CSV)…</source>
        <translation>Export exercise results (CSV)…</translation>
    </message>
    <message>
        <source>Export Chrome trace…</source>
        <translation>Export Chrome trace…</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>Could not write %1: %2</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>Export chart</translation>
    </message>
    <message>
        <source>Could not export %1: %2</source>
        <translation>Could not export %1: %2</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>Exported %1</translation>
    </message>
</context>
<context>
    <name>parascope::ui::FilesController</name>
    <message>
        <source>Open scenario</source>
        <translation>Open scenario</translation>
    </message>
    <message>
        <source>ParaScope scenarios (*.parascope.json *.json)</source>
        <translation>ParaScope scenarios (*.parascope.json *.json)</translation>
    </message>
    <message>
        <source>Save scenario</source>
        <translation>Save scenario</translation>
    </message>
    <message>
        <source>ParaScope scenarios (*.parascope.json)</source>
        <translation>ParaScope scenarios (*.parascope.json)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>&amp;Open…</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>Open &amp;recent</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Save</translation>
    </message>
    <message>
        <source>Save &amp;as…</source>
        <translation>Save &amp;as…</translation>
    </message>
    <message>
        <source>%1 is not a valid scenario:

%2</source>
        <translation>%1 is not a valid scenario:

%2</translation>
    </message>
    <message>
        <source>Could not save %1: %2
The previous file is unchanged.</source>
        <translation>Could not save %1: %2
The previous file is unchanged.</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>Saved %1</translation>
    </message>
    <message>
        <source>There is no scenario to recover.</source>
        <translation>There is no scenario to recover.</translation>
    </message>
    <message>
        <source>Restored the scenario from the last session</source>
        <translation>Restored the scenario from the last session</translation>
    </message>
</context>
<context>
    <name>parascope::ui::HistoryController</name>
    <message>
        <source>&amp;Undo scenario change</source>
        <translation>&amp;Undo scenario change</translation>
    </message>
    <message>
        <source>&amp;Redo scenario change</source>
        <translation>&amp;Redo scenario change</translation>
    </message>
    <message>
        <source>Go back to the scenario before the last change (a slider drag is one change)</source>
        <translation>Go back to the scenario before the last change (a slider drag is one change)</translation>
    </message>
    <message>
        <source>Apply the change undone last once more</source>
        <translation>Apply the change undone last once more</translation>
    </message>
</context>
<context>
    <name>parascope::ui::ImportController</name>
    <message>
        <source>Import model</source>
        <translation>Import model</translation>
    </message>
    <message>
        <source>Hugging Face config (config.json *.json)</source>
        <translation>Hugging Face config (config.json *.json)</translation>
    </message>
    <message>
        <source>Import hardware profile</source>
        <translation>Import hardware profile</translation>
    </message>
    <message>
        <source>Hardware profiles (*.json)</source>
        <translation>Hardware profiles (*.json)</translation>
    </message>
    <message>
        <source>&amp;Import model (Hugging Face config.json)…</source>
        <translation>&amp;Import model (Hugging Face config.json)…</translation>
    </message>
    <message>
        <source>&amp;Calibrate from this machine…</source>
        <translation>&amp;Calibrate from this machine…</translation>
    </message>
    <message>
        <source>&amp;Import profile…</source>
        <translation>&amp;Import profile…</translation>
    </message>
    <message>
        <source>%1 has a vision encoder, which a ParaScope model cannot express. Import its language model alone?</source>
        <translation>%1 has a vision encoder, which a ParaScope model cannot express. Import its language model alone?</translation>
    </message>
    <message>
        <source>Could not import %1:
%2</source>
        <translation>Could not import %1:
%2</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>cancelled</translation>
    </message>
    <message>
        <source>Imported %1 (%2)</source>
        <translation>Imported %1 (%2)</translation>
    </message>
    <message>
        <source>Hardware profile</source>
        <translation>Hardware profile</translation>
    </message>
    <message>
        <source>%1 is not a valid hardware profile:

%2</source>
        <translation>%1 is not a valid hardware profile:

%2</translation>
    </message>
    <message>
        <source>The profile says there is no usable GPU here; nothing to calibrate.</source>
        <translation>The profile says there is no usable GPU here; nothing to calibrate.</translation>
    </message>
    <message>
        <source>Calibrated from %1</source>
        <translation>Calibrated from %1</translation>
    </message>
    <message>
        <source>Calibrate</source>
        <translation>Calibrate</translation>
    </message>
    <message>
        <source>Import Megatron-LM launch script</source>
        <translation>Import Megatron-LM launch script</translation>
    </message>
    <message>
        <source>Launch scripts and argument lists (*.sh *.txt);;All files (*)</source>
        <translation>Launch scripts and argument lists (*.sh *.txt);;All files (*)</translation>
    </message>
    <message>
        <source>Llama, Mistral, Mixtral, Qwen2/3 dense and MoE, DeepSeek-V2/V3 and MoE 16B, GPT-2, GPT-OSS, Gemma 1/2/3, Phi-2/3 and Qwen2.5-VL&apos;s language model; the model opens in the custom-model editor</source>
        <translation>Llama, Mistral, Mixtral, Qwen2/3 dense and MoE, DeepSeek-V2/V3 and MoE 16B, GPT-2, GPT-OSS, Gemma 1/2/3, Phi-2/3 and Qwen2.5-VL's language model; the model opens in the custom-model editor</translation>
    </message>
    <message>
        <source>Import &amp;Megatron-LM launch script…</source>
        <translation>Import &amp;Megatron-LM launch script…</translation>
    </message>
    <message>
        <source>A pretrain_gpt.py launch script (torchrun, srun, sbatch) or a file of its flags: read as bash runs it, the scenario its launcher line describes, with every flag used, ignored or not understood listed</source>
        <translation>A pretrain_gpt.py launch script (torchrun, srun, sbatch) or a file of its flags: read as bash runs it, the scenario its launcher line describes, with every flag used, ignored or not understood listed</translation>
    </message>
    <message>
        <source>Imported %1 (%2); its vision tower, %3 parameters, is not part of the model</source>
        <translation>Imported %1 (%2); its vision tower, %3 parameters, is not part of the model</translation>
    </message>
    <message>
        <source>The script does not say how many GPUs run it. GPUs:</source>
        <translation>The script does not say how many GPUs run it. GPUs:</translation>
    </message>
    <message>
        <source>The vocabulary size comes from the tokenizer, which ParaScope cannot read. Vocabulary size:</source>
        <translation>The vocabulary size comes from the tokenizer, which ParaScope cannot read. Vocabulary size:</translation>
    </message>
    <message>
        <source>assumed: %1</source>
        <translation>assumed: %1</translation>
    </message>
    <message>
        <source>Imported %1: %2 flags used, %3 ignored, %4 not understood</source>
        <translation>Imported %1: %2 flags used, %3 ignored, %4 not understood</translation>
    </message>
    <message>
        <source>%1 imported. What was done with each flag:</source>
        <translation>%1 imported. What was done with each flag:</translation>
    </message>
    <message>
        <source>FP8 needs a GPU with FP8 tensor cores: the cluster is %1, not %2.</source>
        <translation>FP8 needs a GPU with FP8 tensor cores: the cluster is %1, not %2.</translation>
    </message>
</context>
<context>
    <name>parascope::ui::LanguageController</name>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Language</translation>
    </message>
</context>
<context>
    <name>parascope::ui::LayerOpsView</name>
    <message>
        <source>Dense layer</source>
        <translation>Dense layer</translation>
    </message>
    <message>
        <source>MoE layer</source>
        <translation>MoE layer</translation>
    </message>
    <message>
        <source>Op</source>
        <translation>Op</translation>
    </message>
    <message>
        <source>Rate</source>
        <translation>Rate</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Precision</translation>
    </message>
    <message>
        <source>Forward ms</source>
        <translation>Forward ms</translation>
    </message>
    <message>
        <source>FP8 cast ms</source>
        <translation>FP8 cast ms</translation>
    </message>
    <message>
        <source>Recompute ms</source>
        <translation>Recompute ms</translation>
    </message>
    <message>
        <source>%1: %2 moved per forward pass</source>
        <translation>%1: %2 moved per forward pass</translation>
    </message>
    <message>
        <source>%1: %2 GFLOP forward</source>
        <translation>%1: %2 GFLOP forward</translation>
    </message>
    <message>
        <source>Layer (sum)</source>
        <translation>Layer (sum)</translation>
    </message>
    <message>
        <source>No op list: this estimate was computed without explanations.</source>
        <translation>No op list: this estimate was computed without explanations.</translation>
    </message>
    <message>
        <source>One MoE layer</source>
        <translation>One MoE layer</translation>
    </message>
    <message>
        <source>One dense layer</source>
        <translation>One dense layer</translation>
    </message>
    <message>
        <source>%1: %2 ops, %3 kernel launches forward and %4 backward; %5 per microbatch on one GPU. The same list as the command-line report&apos;s time.layer_ops.</source>
        <translation>%1: %2 ops, %3 kernel launches forward and %4 backward; %5 per microbatch on one GPU. The same list as the command-line report's time.layer_ops.</translation>
    </message>
    <message>
        <source>How the time is computed: GEMM efficiency, the attention kernel&apos;s rate, or HBM bandwidth</source>
        <translation>How the time is computed: GEMM efficiency, the attention kernel's rate, or HBM bandwidth</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>Kernels</translation>
    </message>
    <message>
        <source>Kernel launches per microbatch: forward/backward</source>
        <translation>Kernel launches per microbatch: forward/backward</translation>
    </message>
    <message>
        <source>Forward pass, one microbatch</source>
        <translation>Forward pass, one microbatch</translation>
    </message>
    <message>
        <source>dX ms</source>
        <translation>dX ms</translation>
    </message>
    <message>
        <source>Backward: the input gradients</source>
        <translation>Backward: the input gradients</translation>
    </message>
    <message>
        <source>dW ms</source>
        <translation>dW ms</translation>
    </message>
    <message>
        <source>Backward: the weight gradients</source>
        <translation>Backward: the weight gradients</translation>
    </message>
    <message>
        <source>Quantizing the inputs and the output gradients to FP8</source>
        <translation>Quantizing the inputs and the output gradients to FP8</translation>
    </message>
    <message>
        <source>What selective recompute runs again in the backward</source>
        <translation>What selective recompute runs again in the backward</translation>
    </message>
    <message>
        <source>%1: the GPU idles while the host issues the layer: the dispatcher reads the token counts back every forward, so the host is never more than a layer ahead</source>
        <translation>%1: the GPU idles while the host issues the layer: the dispatcher reads the token counts back every forward, so the host is never more than a layer ahead</translation>
    </message>
</context>
<context>
    <name>parascope::ui::MainWindow</name>
    <message>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quit</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;View</translation>
    </message>
    <message>
        <source>Scenario panel</source>
        <translation>Scenario panel</translation>
    </message>
    <message>
        <source>What breaks and lesson</source>
        <translation>What breaks and lesson</translation>
    </message>
    <message>
        <source>&amp;Scenario</source>
        <translation>&amp;Scenario</translation>
    </message>
    <message>
        <source>&amp;Play the timeline</source>
        <translation>&amp;Play the timeline</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Help</translation>
    </message>
    <message>
        <source>&amp;About ParaScope</source>
        <translation>&amp;About ParaScope</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>Scenario</translation>
    </message>
    <message>
        <source>What breaks</source>
        <translation>What breaks</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>&amp;Tools</translation>
    </message>
    <message>
        <source>Explorer</source>
        <translation>Explorer</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Sweep</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Search</translation>
    </message>
    <message>
        <source>Timeline as a slot &amp;grid</source>
        <translation>Timeline as a slot &amp;grid</translation>
    </message>
    <message>
        <source>Collectives</source>
        <translation>Collectives</translation>
    </message>
    <message>
        <source>Memory over time</source>
        <translation>Memory over time</translation>
    </message>
    <message>
        <source>Layer ops</source>
        <translation>Layer ops</translation>
    </message>
    <message>
        <source>Textbook</source>
        <translation>Textbook</translation>
    </message>
</context>
<context>
    <name>parascope::ui::MemoryChart</name>
    <message>
        <source>Pipeline stage</source>
        <translation>Pipeline stage</translation>
    </message>
    <message>
        <source>Memory per GPU (GiB)</source>
        <translation>Memory per GPU (GiB)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Stage %1 — %2: %3 GiB&lt;/b&gt;</source>
        <translation>&lt;b&gt;Stage %1 — %2: %3 GiB&lt;/b&gt;</translation>
    </message>
    <message>
        <source>%1
OOM</source>
        <translation>%1
OOM</translation>
    </message>
    <message>
        <source>capacity %1 GiB</source>
        <translation>capacity %1 GiB</translation>
    </message>
    <message>
        <source>With %1 stages, formulas are shown for the first and last %2 and for the peak stage.</source>
        <translation>With %1 stages, formulas are shown for the first and last %2 and for the peak stage.</translation>
    </message>
    <message>
        <source>OOM</source>
        <translation>OOM</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>At the timeline cursor</source>
        <translation>At the timeline cursor</translation>
    </message>
    <message>
        <source>OOM: %1 of %2 stages over the capacity</source>
        <translation>OOM: %1 of %2 stages over the capacity</translation>
    </message>
    <message>
        <source>A: %1 · %2 (total)</source>
        <translation>A: %1 · %2 (total)</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>peak %1 GiB</source>
        <translation>peak %1 GiB</translation>
    </message>
    <message>
        <source>(stage %1)</source>
        <translation>(stage %1)</translation>
    </message>
    <message>
        <source>%1
borderline</source>
        <translation>%1
borderline</translation>
    </message>
    <message>
        <source>borderline</source>
        <translation>borderline</translation>
    </message>
</context>
<context>
    <name>parascope::ui::MemoryTimeChart</name>
    <message>
        <source>Compare rank 0 with</source>
        <translation>Compare rank 0 with</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nothing</translation>
    </message>
    <message>
        <source>Time in the step (s)</source>
        <translation>Time in the step (s)</translation>
    </message>
    <message>
        <source>Memory per GPU (GiB)</source>
        <translation>Memory per GPU (GiB)</translation>
    </message>
    <message>
        <source>GPU capacity</source>
        <translation>GPU capacity</translation>
    </message>
    <message>
        <source>%1: rank 0 holds the activations of at most %2 microbatches, peak %3 GiB</source>
        <translation>%1: rank 0 holds the activations of at most %2 microbatches, peak %3 GiB</translation>
    </message>
    <message>
        <source>; %1: %2, peak %3 GiB</source>
        <translation>; %1: %2, peak %3 GiB</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>rank 0 under %1</source>
        <translation>rank 0 under %1</translation>
    </message>
    <message>
        <source> (curves of %1 of %2 ranks, evenly spaced)</source>
        <translation> (curves of %1 of %2 ranks, evenly spaced)</translation>
    </message>
    <message>
        <source>Every stage in use</source>
        <translation>Every stage in use</translation>
    </message>
    <message>
        <source>Allocated vs reserved</source>
        <translation>Allocated vs reserved</translation>
    </message>
    <message>
        <source>Allocator</source>
        <translation>Allocator</translation>
    </message>
    <message>
        <source>caching (default)</source>
        <translation>caching (default)</translation>
    </message>
    <message>
        <source>expandable segments</source>
        <translation>expandable segments</translation>
    </message>
    <message>
        <source>Stage %1: peak allocated %2 GiB, reserved %3 GiB, %4 of it fragmentation (%5 allocator); %6 would keep %7. Reserved never falls: freed blocks stay cached</source>
        <translation>Stage %1: peak allocated %2 GiB, reserved %3 GiB, %4 of it fragmentation (%5 allocator); %6 would keep %7. Reserved never falls: freed blocks stay cached</translation>
    </message>
    <message>
        <source>caching</source>
        <translation>caching</translation>
    </message>
    <message>
        <source>the caching allocator</source>
        <translation>the caching allocator</translation>
    </message>
    <message>
        <source>; CPU offload over PCIe per step: %1 to the host, %2 back, %3 s</source>
        <translation>; CPU offload over PCIe per step: %1 to the host, %2 back, %3 s</translation>
    </message>
    <message>
        <source>allocated (memory_allocated)</source>
        <translation>allocated (memory_allocated)</translation>
    </message>
    <message>
        <source>reserved (memory_reserved, what nvidia-smi shows)</source>
        <translation>reserved (memory_reserved, what nvidia-smi shows)</translation>
    </message>
    <message>
        <source>; drawn: the first %1 of %2 microbatches as a step of their own, as on the timeline (the whole step: %3 s)</source>
        <translation>; drawn: the first %1 of %2 microbatches as a step of their own, as on the timeline (the whole step: %3 s)</translation>
    </message>
</context>
<context>
    <name>parascope::ui::PlaybackBar</name>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>Play</translation>
    </message>
    <message>
        <source>Play or pause the step (Space)</source>
        <translation>Play or pause the step (Space)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stop</translation>
    </message>
    <message>
        <source>Speed: 1× plays the whole step in 10 s</source>
        <translation>Speed: 1× plays the whole step in 10 s</translation>
    </message>
    <message>
        <source>Drag to move through the step (or click in the timeline)</source>
        <translation>Drag to move through the step (or click in the timeline)</translation>
    </message>
</context>
<context>
    <name>parascope::ui::PresenterController</name>
    <message>
        <source>&amp;Presenter mode</source>
        <translation>&amp;Presenter mode</translation>
    </message>
</context>
<context>
    <name>parascope::ui::ScenarioPanel</name>
    <message>
        <source>Lesson</source>
        <translation>Lesson</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Model</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Schedule</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>Recompute</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>Precision</translation>
    </message>
    <message>
        <source>Gradient dtype</source>
        <translation>Gradient dtype</translation>
    </message>
    <message>
        <source>Custom…</source>
        <translation>Custom…</translation>
    </message>
    <message>
        <source>Edit the model as JSON (the same fields as a preset)</source>
        <translation>Edit the model as JSON (the same fields as a preset)</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(none)</translation>
    </message>
    <message>
        <source>Sequence parallelism (SP)</source>
        <translation>Sequence parallelism (SP)</translation>
    </message>
    <message>
        <source>GPUs = TP·PP·DP·CP = %1·%2·%3·%4 = &lt;b&gt;%5&lt;/b&gt; (%6 nodes of %7)</source>
        <translation>GPUs = TP·PP·DP·CP = %1·%2·%3·%4 = &lt;b&gt;%5&lt;/b&gt; (%6 nodes of %7)</translation>
    </message>
    <message>
        <source>Sweep this knob</source>
        <translation>Sweep this knob</translation>
    </message>
    <message>
        <source>Right-click: sweep this knob</source>
        <translation>Right-click: sweep this knob</translation>
    </message>
    <message>
        <source>FP8 recipe</source>
        <translation>FP8 recipe</translation>
    </message>
    <message>
        <source>How FP8 GEMMs scale their inputs; used when the precision is FP8</source>
        <translation>How FP8 GEMMs scale their inputs; used when the precision is FP8</translation>
    </message>
    <message>
        <source>CP exchange</source>
        <translation>CP exchange</translation>
    </message>
    <message>
        <source>How context parallelism exchanges keys and values; used when CP &gt; 1</source>
        <translation>How context parallelism exchanges keys and values; used when CP &gt; 1</translation>
    </message>
    <message>
        <source>Attention kernel</source>
        <translation>Attention kernel</translation>
    </message>
    <message>
        <source>none (unfused)</source>
        <translation>none (unfused)</translation>
    </message>
    <message>
        <source>The fused (flash) attention kernel the training software calls: cuDNN (Transformer Engine, as fast as FlashAttention-3 on Hopper) or FlashAttention-2 (PyTorch SDPA&apos;s default); none keeps the s × s scores in memory</source>
        <translation>The fused (flash) attention kernel the training software calls: cuDNN (Transformer Engine, as fast as FlashAttention-3 on Hopper) or FlashAttention-2 (PyTorch SDPA's default); none keeps the s × s scores in memory</translation>
    </message>
    <message>
        <source>MoE dispatch</source>
        <translation>MoE dispatch</translation>
    </message>
    <message>
        <source>How MoE tokens reach their experts: a copy per expert (Megatron&apos;s All-to-All) or one per GPU and per node (DeepEP); used when EP &gt; 1</source>
        <translation>How MoE tokens reach their experts: a copy per expert (Megatron's All-to-All) or one per GPU and per node (DeepEP); used when EP &gt; 1</translation>
    </message>
    <message>
        <source>Recomputed</source>
        <translation>Recomputed</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nothing</translation>
    </message>
    <message>
        <source>%1 and %2 more</source>
        <translation>%1 and %2 more</translation>
    </message>
    <message>
        <source>What selective recompute rebuilds in the backward instead of keeping (Megatron&apos;s --recompute-modules, torchtitan&apos;s op-level SAC): %1</source>
        <translation>What selective recompute rebuilds in the backward instead of keeping (Megatron's --recompute-modules, torchtitan's op-level SAC): %1</translation>
    </message>
    <message>
        <source>CPU offload</source>
        <translation>CPU offload</translation>
    </message>
    <message>
        <source>Keep model states in the node&apos;s CPU memory (ZeRO-Offload, FSDP CPU offload): GPU memory drops, host memory per node and the PCIe copies and CPU optimizer step enter the step; parameters need ZeRO-3</source>
        <translation>Keep model states in the node's CPU memory (ZeRO-Offload, FSDP CPU offload): GPU memory drops, host memory per node and the PCIe copies and CPU optimizer step enter the step; parameters need ZeRO-3</translation>
    </message>
    <message>
        <source>Gradients on the wire</source>
        <translation>Gradients on the wire</translation>
    </message>
    <message>
        <source>Gradient bucket</source>
        <translation>Gradient bucket</translation>
    </message>
    <message>
        <source>What the data-parallel gradient reduction sends: the gradients as they are, BF16, FP8 or one bit per element with error feedback (1-bit Adam): fewer bytes on the link for a compression pass and, for 1-bit, an fp32 error buffer</source>
        <translation>What the data-parallel gradient reduction sends: the gradients as they are, BF16, FP8 or one bit per element with error feedback (1-bit Adam): fewer bytes on the link for a compression pass and, for 1-bit, an fp32 error buffer</translation>
    </message>
    <message>
        <source>Off: each activation or gradient send holds its GPU until it has arrived (synchronous send/recv), as in the textbook&apos;s pipeline timeline</source>
        <translation>Off: each activation or gradient send holds its GPU until it has arrived (synchronous send/recv), as in the textbook's pipeline timeline</translation>
    </message>
    <message>
        <source>Megatron --overlap-moe-expert-parallel-comm: one microbatch&apos;s forward runs beside the previous one&apos;s backward, each one&apos;s dispatch and combine hidden behind the other&apos;s compute; needs EP &gt; 1, no full recompute, and with a pipeline the interleaved schedule</source>
        <translation>Megatron --overlap-moe-expert-parallel-comm: one microbatch's forward runs beside the previous one's backward, each one's dispatch and combine hidden behind the other's compute; needs EP &gt; 1, no full recompute, and with a pipeline the interleaved schedule</translation>
    </message>
    <message>
        <source>Overlap DP gradient reduction</source>
        <translation>Overlap DP gradient reduction</translation>
    </message>
    <message>
        <source>The data-parallel gradient reduction runs during the backward, bucket by bucket (the last bucket cannot hide)</source>
        <translation>The data-parallel gradient reduction runs during the backward, bucket by bucket (the last bucket cannot hide)</translation>
    </message>
    <message>
        <source>Overlap TP communication</source>
        <translation>Overlap TP communication</translation>
    </message>
    <message>
        <source>Overlap EP All-to-All (combined 1F1B)</source>
        <translation>Overlap EP All-to-All (combined 1F1B)</translation>
    </message>
    <message>
        <source>Overlap pipeline sends</source>
        <translation>Overlap pipeline sends</translation>
    </message>
    <message>
        <source>Megatron&apos;s default</source>
        <translation>Megatron's default</translation>
    </message>
    <message>
        <source>Gradient bucket, millions of parameters (type 40, 40 M, 1.5 G or a plain count such as 536870912; Megatron&apos;s default is max(40 M, 1 M·DP)): smaller buckets mean more calls (latency), larger ones a longer last bucket, which cannot overlap the backward</source>
        <translation>Gradient bucket, millions of parameters (type 40, 40 M, 1.5 G or a plain count such as 536870912; Megatron's default is max(40 M, 1 M·DP)): smaller buckets mean more calls (latency), larger ones a longer last bucket, which cannot overlap the backward</translation>
    </message>
    <message>
        <source>FP8 activation storage</source>
        <translation>FP8 activation storage</translation>
    </message>
    <message>
        <source>Keep the linear layers&apos; inputs for the backward as the FP8 copies their GEMMs made, 1 byte instead of 2, as DeepSeek-V3 does (the attention output stays 16-bit): less activation memory at no step time in the model</source>
        <translation>Keep the linear layers' inputs for the backward as the FP8 copies their GEMMs made, 1 byte instead of 2, as DeepSeek-V3 does (the attention output stays 16-bit): less activation memory at no step time in the model</translation>
    </message>
    <message>
        <source>Faults and stragglers (what-if)</source>
        <translation>Faults and stragglers (what-if)</translation>
    </message>
    <message>
        <source>One slow GPU, one degraded link, hangs that end in the NCCL timeout and loss spikes rolled back to a checkpoint: what each does to the step, the walls and goodput</source>
        <translation>One slow GPU, one degraded link, hangs that end in the NCCL timeout and loss spikes rolled back to a checkpoint: what each does to the step, the walls and goodput</translation>
    </message>
    <message>
        <source>Network topology (what-if)</source>
        <translation>Network topology (what-if)</translation>
    </message>
    <message>
        <source>The fabric between the nodes: NICs shared by a node&apos;s GPUs instead of one per GPU, leaf switches whose uplinks are oversubscribed; each group&apos;s link in the communication chart&apos;s bandwidth ladder</source>
        <translation>The fabric between the nodes: NICs shared by a node's GPUs instead of one per GPU, leaf switches whose uplinks are oversubscribed; each group's link in the communication chart's bandwidth ladder</translation>
    </message>
    <message>
        <source>1F1B flushes the pipeline at every optimizer step (a bubble); PipeDream keeps a weight version per microbatch in flight and PipeDream-2BW two, run without a flush and compute with stale weights; needs 1F1B and PP &gt; 1</source>
        <translation>1F1B flushes the pipeline at every optimizer step (a bubble); PipeDream keeps a weight version per microbatch in flight and PipeDream-2BW two, run without a flush and compute with stale weights; needs 1F1B and PP &gt; 1</translation>
    </message>
    <message>
        <source>Pipeline flush</source>
        <translation>Pipeline flush</translation>
    </message>
    <message>
        <source>TP overlap by</source>
        <translation>TP overlap by</translation>
    </message>
    <message>
        <source>Which TP overlap runs: Transformer Engine&apos;s userbuffers (Megatron&apos;s --tp-comm-overlap) or PyTorch&apos;s async TP (torchtitan), which splits each GEMM beside a TP collective into TP chunks, each paying a GEMM&apos;s fixed cost, and leaves the backward&apos;s reduce-scatters after q/k/v and gate/up exposed</source>
        <translation>Which TP overlap runs: Transformer Engine's userbuffers (Megatron's --tp-comm-overlap) or PyTorch's async TP (torchtitan), which splits each GEMM beside a TP collective into TP chunks, each paying a GEMM's fixed cost, and leaves the backward's reduce-scatters after q/k/v and gate/up exposed</translation>
    </message>
    <message>
        <source>Megatron --tp-comm-overlap / PyTorch async TP: each TP collective hides behind the GEMM it feeds or follows (async TP: except the backward&apos;s reduce-scatters, which follow a sum of matmuls)</source>
        <translation>Megatron --tp-comm-overlap / PyTorch async TP: each TP collective hides behind the GEMM it feeds or follows (async TP: except the backward's reduce-scatters, which follow a sum of matmuls)</translation>
    </message>
    <message>
        <source>How the run lays out its activations: sequence first [s, b, h] (Megatron-LM), where SP&apos;s AllGather and ReduceScatter work in place, or batch first [b, s, h] (PyTorch DTensor, torchtitan), where each copies its whole buffer once more to reassemble the sequence</source>
        <translation>How the run lays out its activations: sequence first [s, b, h] (Megatron-LM), where SP's AllGather and ReduceScatter work in place, or batch first [b, s, h] (PyTorch DTensor, torchtitan), where each copies its whole buffer once more to reassemble the sequence</translation>
    </message>
    <message>
        <source>Activation layout</source>
        <translation>Activation layout</translation>
    </message>
    <message>
        <source>How ZeRO-3 / FSDP holds a layer&apos;s shards: one flat buffer the AllGather writes in place (PyTorch FSDP1, DeepSpeed ZeRO-3, Megatron-FSDP), or each parameter sharded on its own (PyTorch FSDP2, torchtitan), where every AllGather is followed by a copy of the gathered layer into its parameters</source>
        <translation>How ZeRO-3 / FSDP holds a layer's shards: one flat buffer the AllGather writes in place (PyTorch FSDP1, DeepSpeed ZeRO-3, Megatron-FSDP), or each parameter sharded on its own (PyTorch FSDP2, torchtitan), where every AllGather is followed by a copy of the gathered layer into its parameters</translation>
    </message>
    <message>
        <source>ZeRO-3 sharding</source>
        <translation>ZeRO-3 sharding</translation>
    </message>
    <message>
        <source>K/V repeated to every query head</source>
        <translation>K/V repeated to every query head</translation>
    </message>
    <message>
        <source>The model code copies the GQA keys and values out to every query head before the attention kernel (repeat_kv, as torchtitan&apos;s Llama did): a copy in the forward and the backward, and CP moves them at the query heads&apos; width</source>
        <translation>The model code copies the GQA keys and values out to every query head before the attention kernel (repeat_kv, as torchtitan's Llama did): a copy in the forward and the backward, and CP moves them at the query heads' width</translation>
    </message>
    <message>
        <source>DeepEP SMs</source>
        <translation>DeepEP SMs</translation>
    </message>
    <message>
        <source>Megatron --moe-deepep-num-sms (default 20): the SMs DeepEP&apos;s dispatch and combine kernels hold; the compute beside them runs on the rest, k/(N − k) of the hidden All-to-All time longer</source>
        <translation>Megatron --moe-deepep-num-sms (default 20): the SMs DeepEP's dispatch and combine kernels hold; the compute beside them runs on the rest, k/(N − k) of the hidden All-to-All time longer</translation>
    </message>
    <message>
        <source>Megatron-LM fuses Q, K and V into one GEMM (linear_qkv) and SwiGLU&apos;s gate and up into another (linear_fc1). Off: one GEMM per weight, as torchtitan&apos;s Llama writes it (wq, wk, wv; w1, w3): each further GEMM pays a GEMM&apos;s fixed cost in every pass (and in every chunk under async TP), and the input gradient adds up the partial products</source>
        <translation>Megatron-LM fuses Q, K and V into one GEMM (linear_qkv) and SwiGLU's gate and up into another (linear_fc1). Off: one GEMM per weight, as torchtitan's Llama writes it (wq, wk, wv; w1, w3): each further GEMM pays a GEMM's fixed cost in every pass (and in every chunk under async TP), and the input gradient adds up the partial products</translation>
    </message>
    <message>
        <source>Fused projections (QKV; gate and up)</source>
        <translation>Fused projections (QKV; gate and up)</translation>
    </message>
    <message>
        <source>Which parts of a layer replay as CUDA graphs (Megatron&apos;s --cuda-graph-impl and --cuda-graph-modules): whole MoE layers need a capacity factor and take the host out; attention and router alone leave the dispatcher and experts eager</source>
        <translation>Which parts of a layer replay as CUDA graphs (Megatron's --cuda-graph-impl and --cuda-graph-modules): whole MoE layers need a capacity factor and take the host out; attention and router alone leave the dispatcher and experts eager</translation>
    </message>
    <message>
        <source>CUDA graphs</source>
        <translation>CUDA graphs</translation>
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
        <translation>Layout</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>Recompute</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Schedule</translation>
    </message>
    <message>
        <source>Step (s)</source>
        <translation>Step (s)</translation>
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
        <translation>Peak (GiB)</translation>
    </message>
    <message>
        <source>Ranked by tokens/s; a tie goes to the lower peak memory, then the simpler layout</source>
        <translation>Ranked by tokens/s; a tie goes to the lower peak memory, then the simpler layout</translation>
    </message>
</context>
<context>
    <name>parascope::ui::SearchView</name>
    <message>
        <source>Search all strategies</source>
        <translation>Search all strategies</translation>
    </message>
    <message>
        <source>strategies that fit (top)</source>
        <translation>strategies that fit (top)</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>Pareto front</translation>
    </message>
    <message>
        <source>best tokens/s</source>
        <translation>best tokens/s</translation>
    </message>
    <message>
        <source>Peak memory per GPU (GiB)</source>
        <translation>Peak memory per GPU (GiB)</translation>
    </message>
    <message>
        <source>Step time (s)</source>
        <translation>Step time (s)</translation>
    </message>
    <message>
        <source>Finds every valid TP × PP × DP × CP × EP × ZeRO × micro batch × recompute × schedule for this model on this many GPUs. Double-click a row to apply it.</source>
        <translation>Finds every valid TP × PP × DP × CP × EP × ZeRO × micro batch × recompute × schedule for this model on this many GPUs. Double-click a row to apply it.</translation>
    </message>
    <message>
        <source>Evaluating strategies…</source>
        <translation>Evaluating strategies…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <source>, cancelled</source>
        <translation>, cancelled</translation>
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
        <translation>best step (s)</translation>
    </message>
    <message>
        <source>Nearest GPU counts with a valid layout: %1.</source>
        <translation>Nearest GPU counts with a valid layout: %1.</translation>
    </message>
    <message>
        <source>Best step (s) per TP × PP, darker = faster. Hatched: nothing fits (OOM: out of memory; —: no valid layout).</source>
        <translation>Best step (s) per TP × PP, darker = faster. Hatched: nothing fits (OOM: out of memory; —: no valid layout).</translation>
    </message>
    <message numerus="yes">
        <source>%1 strategies on %n GPU(s): %2 valid, %3 fit%4 (%5 s). Double-click a row to apply it.</source>
        <translation>
            <numerusform>%1 strategies on %n GPU: %2 valid, %3 fit%4 (%5 s). Double-click a row to apply it.</numerusform>
            <numerusform>%1 strategies on %n GPUs: %2 valid, %3 fit%4 (%5 s). Double-click a row to apply it.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>parascope::ui::StatusLabel</name>
    <message>
        <source>Predict first: the numbers are hidden until you reveal your estimate.</source>
        <translation>Predict first: the numbers are hidden until you reveal your estimate.</translation>
    </message>
</context>
<context>
    <name>parascope::ui::SweepView</name>
    <message>
        <source>values, e.g. 1,2,4,8,16,32 (empty: sensible values around the current one)</source>
        <translation>values, e.g. 1,2,4,8,16,32 (empty: sensible values around the current one)</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Sweep</translation>
    </message>
    <message>
        <source>Peak memory per GPU (GiB)</source>
        <translation>Peak memory per GPU (GiB)</translation>
    </message>
    <message>
        <source>GPU capacity (GiB)</source>
        <translation>GPU capacity (GiB)</translation>
    </message>
    <message>
        <source>Step time (s)</source>
        <translation>Step time (s)</translation>
    </message>
    <message>
        <source>Bubble (idle / step, %)</source>
        <translation>Bubble (idle / step, %)</translation>
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
        <translation>&lt;b&gt;%1 = %2&lt;/b&gt;%3&lt;br&gt;peak %4 of %5 GiB (stage %6)&lt;br&gt;step %7 s · bubble %8 % · MFU %9 %</translation>
    </message>
    <message>
        <source> — invalid</source>
        <translation> — invalid</translation>
    </message>
    <message>
        <source>Pick a knob and press Sweep.</source>
        <translation>Pick a knob and press Sweep.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Breaking points:&lt;/b&gt; none in this range.</source>
        <translation>&lt;b&gt;Breaking points:&lt;/b&gt; none in this range.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Breaking points:&lt;/b&gt;&lt;br&gt;</source>
        <translation>&lt;b&gt;Breaking points:&lt;/b&gt;&lt;br&gt;</translation>
    </message>
    <message>
        <source>&lt;i&gt;The scenario changed: updating the sweep…&lt;/i&gt;</source>
        <translation>&lt;i&gt;The scenario changed: updating the sweep…&lt;/i&gt;</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s) · DP %1 · global batch %2</source>
        <translation>
            <numerusform>%n GPU · DP %1 · global batch %2</numerusform>
            <numerusform>%n GPUs · DP %1 · global batch %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n GPU</numerusform>
            <numerusform>%n GPUs</numerusform>
        </translation>
    </message>
    <message>
        <source>DP %1</source>
        <translation>DP %1</translation>
    </message>
    <message>
        <source>batch %1</source>
        <translation>batch %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Note:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Note:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>Stability wall (1 − goodput, %)</source>
        <translation>Stability wall (1 − goodput, %)</translation>
    </message>
    <message>
        <source>How sure: %1</source>
        <translation>How sure: %1</translation>
    </message>
    <message>
        <source>Out of memory: the peak it would need (GiB)</source>
        <translation>Out of memory: the peak it would need (GiB)</translation>
    </message>
    <message>
        <source>No value runs (✗): see the breaking points below</source>
        <translation>No value runs (✗): see the breaking points below</translation>
    </message>
</context>
<context>
    <name>parascope::ui::TextbookView</name>
    <message>
        <source>Quantity</source>
        <translation>Quantity</translation>
    </message>
    <message>
        <source>Textbook formula</source>
        <translation>Textbook formula</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>The chapter&apos;s shortcuts for this scenario, beside the engine&apos;s number for the same quantity, and what each shortcut leaves out.</source>
        <translation>The chapter's shortcuts for this scenario, beside the engine's number for the same quantity, and what each shortcut leaves out.</translation>
    </message>
    <message>
        <source>Textbook value</source>
        <translation>Textbook value</translation>
    </message>
    <message>
        <source>Engine:</source>
        <translation>Engine:</translation>
    </message>
    <message>
        <source>Leaves out:</source>
        <translation>Leaves out:</translation>
    </message>
</context>
<context>
    <name>parascope::ui::TimelineChart</name>
    <message>
        <source>Time in the step (s)</source>
        <translation>Time in the step (s)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;rank %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;rank %2</translation>
    </message>
    <message>
        <source>, stage %1 (chunk %2)</source>
        <translation>, stage %1 (chunk %2)</translation>
    </message>
    <message>
        <source>, microbatch %1</source>
        <translation>, microbatch %1</translation>
    </message>
    <message>
        <source>&lt;br&gt;start %1, duration %2</source>
        <translation>&lt;br&gt;start %1, duration %2</translation>
    </message>
    <message>
        <source>&lt;br&gt;of which exposed communication %1</source>
        <translation>&lt;br&gt;of which exposed communication %1</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source> · showing %1 of %2 microbatches</source>
        <translation> · showing %1 of %2 microbatches</translation>
    </message>
    <message>
        <source>No simulated timeline: %1</source>
        <translation>No simulated timeline: %1</translation>
    </message>
    <message>
        <source>%1 · step %2</source>
        <translation>%1 · step %2</translation>
    </message>
    <message>
        <source>bubble: simulated %1 %, formula %2 = %3 %</source>
        <translation>bubble: simulated %1 %, formula %2 = %3 %</translation>
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
        <translation>A: %1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B: %1</translation>
    </message>
    <message>
        <source>Slot (a forward = 1, a backward = 2)</source>
        <translation>Slot (a forward = 1, a backward = 2)</translation>
    </message>
    <message numerus="yes">
        <source>Slot grid · %1 · %n microbatch(es)</source>
        <translation>
            <numerusform>Slot grid · %1 · %n microbatch(es)</numerusform>
            <numerusform>Slot grid · %1 · %n microbatch(es)</numerusform>
        </translation>
    </message>
    <message>
        <source> · %1 of %2 ranks</source>
        <translation> · %1 of %2 ranks</translation>
    </message>
    <message>
        <source>%1 · slow ×%2</source>
        <translation>%1 · slow ×%2</translation>
    </message>
    <message>
        <source>, gradient bucket %1 of %2 (%3 end within the backward)</source>
        <translation>, gradient bucket %1 of %2 (%3 end within the backward)</translation>
    </message>
    <message>
        <source>no flush (%1): no bubble; drawn: a flushed step&apos;s ops</source>
        <translation>no flush (%1): no bubble; drawn: a flushed step's ops</translation>
    </message>
</context>
<context>
    <name>parascope::ui::TraceDialog</name>
    <message>
        <source>Measured trace beside the simulation — %1</source>
        <translation>Measured trace beside the simulation — %1</translation>
    </message>
    <message>
        <source>Part of the step</source>
        <translation>Part of the step</translation>
    </message>
    <message>
        <source>Simulated (ms)</source>
        <translation>Simulated (ms)</translation>
    </message>
    <message>
        <source>Measured (ms)</source>
        <translation>Measured (ms)</translation>
    </message>
    <message>
        <source>Ratio</source>
        <translation>Ratio</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <source>, rank %1 of %2</source>
        <translation>, rank %1 of %2</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;: %2, %n step(s) measured, median %3 ms. Simulated: &lt;b&gt;%4&lt;/b&gt;, %5 ms; error %6 %.</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: %2, %n step measured, median %3 ms. Simulated: &lt;b&gt;%4&lt;/b&gt;, %5 ms; error %6 %.</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: %2, %n steps measured, median %3 ms. Simulated: &lt;b&gt;%4&lt;/b&gt;, %5 ms; error %6 %.</numerusform>
        </translation>
    </message>
    <message>
        <source>time per step (ms)</source>
        <translation>time per step (ms)</translation>
    </message>
    <message>
        <source>Measured step</source>
        <translation>Measured step</translation>
    </message>
    <message>
        <source>Simulated step</source>
        <translation>Simulated step</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;: %2, %n step(s) measured, median %3 ms. Simulated: &lt;b&gt;%4&lt;/b&gt;, %5 ms. &lt;b&gt;A different job&lt;/b&gt;: no error is given (see below).</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: %2, %n step measured, median %3 ms. Simulated: &lt;b&gt;%4&lt;/b&gt;, %5 ms. &lt;b&gt;A different job&lt;/b&gt;: no error is given (see below).</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: %2, %n steps measured, median %3 ms. Simulated: &lt;b&gt;%4&lt;/b&gt;, %5 ms. &lt;b&gt;A different job&lt;/b&gt;: no error is given (see below).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>parascope::ui::WallsChart</name>
    <message>
        <source>share of the wall (%)</source>
        <translation>share of the wall (%)</translation>
    </message>
    <message>
        <source>the wall</source>
        <translation>the wall</translation>
    </message>
</context>
<context>
    <name>parascope::ui::WallsStrip</name>
    <message>
        <source>Invalid configuration</source>
        <translation>Invalid configuration</translation>
    </message>
</context>
</TS>
