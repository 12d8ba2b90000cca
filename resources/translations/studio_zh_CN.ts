<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name></name>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>Actions</name>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Undo the last change to the shown draft</source>
        <translation>撤销对当前草稿的上一次修改</translation>
    </message>
    <message>
        <source>Redo the change undone last</source>
        <translation>重做上一次撤销的修改</translation>
    </message>
    <message>
        <source>&amp;New tool</source>
        <translation>新建工具(&amp;N)</translation>
    </message>
    <message>
        <source>Add a new tool to the draft</source>
        <translation>向草稿添加一个新工具</translation>
    </message>
    <message>
        <source>&amp;Duplicate tool</source>
        <translation>复制工具(&amp;D)</translation>
    </message>
    <message>
        <source>Copy the selected tool</source>
        <translation>复制所选工具</translation>
    </message>
    <message>
        <source>De&amp;lete tool</source>
        <translation>删除工具(&amp;L)</translation>
    </message>
    <message>
        <source>Delete the selected tool</source>
        <translation>删除所选工具</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save the draft</source>
        <translation>保存草稿</translation>
    </message>
    <message>
        <source>&amp;Find tool</source>
        <translation>查找工具(&amp;F)</translation>
    </message>
    <message>
        <source>Filter the tool list</source>
        <translation>筛选工具列表</translation>
    </message>
    <message>
        <source>&amp;Publish…</source>
        <translation>发布(&amp;P)…</translation>
    </message>
    <message>
        <source>Publish the saved draft as a new immutable version</source>
        <translation>将已保存的草稿发布为新的不可变版本</translation>
    </message>
    <message>
        <source>&amp;Open version…</source>
        <translation>打开版本(&amp;O)…</translation>
    </message>
    <message>
        <source>Open the selected published version read-only</source>
        <translation>以只读方式打开所选的已发布版本</translation>
    </message>
    <message>
        <source>&amp;Back to draft</source>
        <translation>返回草稿(&amp;B)</translation>
    </message>
    <message>
        <source>Return to the editable draft</source>
        <translation>返回可编辑的草稿</translation>
    </message>
    <message>
        <source>&amp;Dark theme</source>
        <translation>深色主题(&amp;D)</translation>
    </message>
    <message>
        <source>Switch between the dark and the light theme</source>
        <translation>在深色和浅色主题之间切换</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Close the studio</source>
        <translation>关闭 Studio</translation>
    </message>
    <message>
        <source>New &amp;registry…</source>
        <translation>新建注册表(&amp;R)…</translation>
    </message>
    <message>
        <source>Create an empty registry</source>
        <translation>创建一个空注册表</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <source>Import tools from a provider file or a registry folder</source>
        <translation>从提供商文件或注册表文件夹导入工具</translation>
    </message>
    <message>
        <source>Import from &amp;MCP server…</source>
        <translation>从 MCP 服务器导入(&amp;M)…</translation>
    </message>
    <message>
        <source>Pull the tools a live MCP server lists (a command over stdio, or a URL)</source>
        <translation>拉取运行中的 MCP 服务器列出的工具（通过 stdio 启动命令，或使用 URL）</translation>
    </message>
    <message>
        <source>&amp;Check against MCP server…</source>
        <translation>对照 MCP 服务器检查(&amp;C)…</translation>
    </message>
    <message>
        <source>Compare what the registry&apos;s live MCP server lists with a pinned version</source>
        <translation>将注册表的 MCP 服务器当前列出的内容与固定版本进行比较</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Export the shown draft or version to a file or folder</source>
        <translation>将当前显示的草稿或版本导出到文件或文件夹</translation>
    </message>
    <message>
        <source>Registry se&amp;ttings…</source>
        <translation>注册表设置(&amp;T)…</translation>
    </message>
    <message>
        <source>Title, description, verb vocabulary and description template</source>
        <translation>标题、描述、动词词表和描述模板</translation>
    </message>
    <message>
        <source>Delete re&amp;gistry…</source>
        <translation>删除注册表(&amp;G)…</translation>
    </message>
    <message>
        <source>Delete a registry that has no published versions</source>
        <translation>删除没有已发布版本的注册表</translation>
    </message>
    <message>
        <source>&amp;Run lint</source>
        <translation>运行检查(&amp;R)</translation>
    </message>
    <message>
        <source>Lint the whole draft again</source>
        <translation>重新检查整个草稿</translation>
    </message>
    <message>
        <source>&amp;Next problem</source>
        <translation>下一个问题(&amp;N)</translation>
    </message>
    <message>
        <source>Go to the next lint problem</source>
        <translation>跳到下一个检查问题</translation>
    </message>
    <message>
        <source>&amp;Previous problem</source>
        <translation>上一个问题(&amp;P)</translation>
    </message>
    <message>
        <source>Go to the previous lint problem</source>
        <translation>跳到上一个检查问题</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Every keyboard shortcut of the studio</source>
        <translation>Studio 的全部键盘快捷键</translation>
    </message>
    <message>
        <source>Lint for the {profile} profile</source>
        <translation>按 {profile} 配置检查</translation>
    </message>
    <message>
        <source>&amp;Editor</source>
        <translation>编辑器(&amp;E)</translation>
    </message>
    <message>
        <source>Edit the registry&apos;s tools</source>
        <translation>编辑注册表中的工具</translation>
    </message>
    <message>
        <source>&amp;Playground</source>
        <translation>调试台(&amp;P)</translation>
    </message>
    <message>
        <source>Try the tools with a real model</source>
        <translation>用真实模型试用这些工具</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>Send the prompt to the model</source>
        <translation>将提示词发送给模型</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Stop the run in progress</source>
        <translation>停止正在进行的运行</translation>
    </message>
    <message>
        <source>&amp;Release</source>
        <translation>发布管理(&amp;R)</translation>
    </message>
    <message>
        <source>Gray release: channels, simulator, guard</source>
        <translation>灰度发布：渠道、模拟器、守护</translation>
    </message>
    <message>
        <source>&amp;Sessions</source>
        <translation>会话(&amp;S)</translation>
    </message>
    <message>
        <source>Browse, replay and re-validate sessions</source>
        <translation>浏览、回放和重新验证会话</translation>
    </message>
    <message>
        <source>&amp;Diff</source>
        <translation>差异(&amp;D)</translation>
    </message>
    <message>
        <source>What changes between two versions</source>
        <translation>两个版本之间的变化</translation>
    </message>
    <message>
        <source>E&amp;vals</source>
        <translation>评测(&amp;V)</translation>
    </message>
    <message>
        <source>Eval sets, A vs B runs and reports: does a version make models choose better?</source>
        <translation>评测集、A/B 对比运行与报告：新版本能否让模型更准确地选择工具？</translation>
    </message>
    <message>
        <source>S&amp;kills &amp;&amp; agents</source>
        <translation>技能与智能体(&amp;K)</translation>
    </message>
    <message>
        <source>The registry&apos;s skills and remote agents beside its tools: edit, lint numbers, delegate</source>
        <translation>注册表中的技能与远程智能体（与工具并列）：编辑、目录开销、委派试运行</translation>
    </message>
</context>
<context>
    <name>ApprovalDialog</name>
    <message>
        <source>Approve {tool}?</source>
        <translation>批准 {tool}？</translation>
    </message>
</context>
<context>
    <name>CanaryDialog</name>
    <message>
        <source>Set canary</source>
        <translation>设置金丝雀</translation>
    </message>
    <message>
        <source>Why (kept in the channel log)</source>
        <translation>原因（记录在渠道日志中）</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>比例</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>CaseDialog</name>
    <message>
        <source>Edit eval case</source>
        <extracomment>What a new case starts as: every part an author usually fills in.</extracomment>
        <translation>编辑评测用例</translation>
    </message>
    <message>
        <source>New eval case</source>
        <translation>新建评测用例</translation>
    </message>
    <message>
        <source>One case as JSON: id, user, expect (kind tool, tools, no_tool or ask; calls with argument matchers by JSON path), must_not, tags, context.</source>
        <translation>以 JSON 表示一个用例：id、user、expect（kind 为 tool、tools、no_tool 或 ask；calls 按 JSON 路径给出参数匹配条件）、must_not、tags、context。</translation>
    </message>
    <message>
        <source>Tools: {names}</source>
        <translation>工具：{names}</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>The case is valid.</source>
        <translation>用例有效。</translation>
    </message>
</context>
<context>
    <name>CasesModel</name>
    <message>
        <source>Not in the run</source>
        <translation>不在本次运行中</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
</context>
<context>
    <name>ChangeTableModel</name>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Before → after</source>
        <translation>之前 → 之后</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>before: {before}
after: {after}</source>
        <translation>之前：{before}
之后：{after}</translation>
    </message>
</context>
<context>
    <name>Columns</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Required</source>
        <translation>必填</translation>
    </message>
    <message>
        <source>Enum values</source>
        <translation>枚举值</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认值</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>Aliases</source>
        <translation>别名</translation>
    </message>
    <message>
        <source>Enum aliases</source>
        <translation>枚举别名</translation>
    </message>
    <message>
        <source>Injected from</source>
        <translation>注入来源</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>规则</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>(registry)</source>
        <translation>（注册表）</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Call id</source>
        <translation>调用 ID</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>用例</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>A chose</source>
        <translation>A 的选择</translation>
    </message>
    <message>
        <source>B chose</source>
        <translation>B 的选择</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>变更</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Registry</source>
        <translation>注册表</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Similar to</source>
        <translation>相似于</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <source>Channel</source>
        <translation>渠道</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>比例</translation>
    </message>
    <message>
        <source>Salt</source>
        <translation>盐值</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>操作人</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Before → after</source>
        <translation>之前 → 之后</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>发生了什么</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>主体</translation>
    </message>
    <message>
        <source>Bucket</source>
        <translation>分桶</translation>
    </message>
    <message>
        <source>Calls S/C</source>
        <translation>调用数 S/C</translation>
    </message>
    <message>
        <source>Success stable</source>
        <translation>stable 成功率</translation>
    </message>
    <message>
        <source>Success canary</source>
        <translation>金丝雀成功率</translation>
    </message>
    <message>
        <source>Validation S/C</source>
        <translation>校验 S/C</translation>
    </message>
    <message>
        <source>Canary errors</source>
        <translation>金丝雀错误</translation>
    </message>
    <message>
        <source>Dup. writes/1k S/C</source>
        <translation>重复写入/千次 S/C</translation>
    </message>
    <message>
        <source>Dup. sent/1k S/C</source>
        <translation>重复发送/千次 S/C</translation>
    </message>
    <message>
        <source>p50 S/C ms</source>
        <translation>p50 S/C 毫秒</translation>
    </message>
    <message>
        <source>p95 S/C ms</source>
        <translation>p95 S/C 毫秒</translation>
    </message>
    <message>
        <source>z</source>
        <translation>z</translation>
    </message>
    <message>
        <source>p</source>
        <translation>p</translation>
    </message>
    <message>
        <source>Shared words</source>
        <translation>共同词语</translation>
    </message>
    <message>
        <source>Tells them apart</source>
        <translation>区分说明</translation>
    </message>
    <message>
        <source>Semver</source>
        <translation>语义版本</translation>
    </message>
    <message>
        <source>Published</source>
        <translation>发布时间</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>作者</translation>
    </message>
    <message>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Hash</source>
        <translation>哈希</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>审阅</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Meaning</source>
        <translation>含义</translation>
    </message>
    <message>
        <source>Retryable</source>
        <translation>可重试</translation>
    </message>
    <message>
        <source>Hint</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Arguments (JSON object)</source>
        <translation>参数（JSON 对象）</translation>
    </message>
    <message>
        <source>Seq</source>
        <translation>序号</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Risk</source>
        <translation>风险</translation>
    </message>
    <message>
        <source>Executor</source>
        <translation>执行器</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>User turn</source>
        <translation>用户轮次</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>期望</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
</context>
<context>
    <name>ConfusionModel</name>
    <message>
        <source>Expected: {name}</source>
        <translation>期望：{name}</translation>
    </message>
    <message>
        <source>Chosen: {name}</source>
        <translation>选择：{name}</translation>
    </message>
    <message>
        <source>expected {expected}, chose {chosen}: {count} of {total}</source>
        <translation>期望 {expected}，选择了 {chosen}：{total} 次中 {count} 次</translation>
    </message>
</context>
<context>
    <name>ContractTabWidget</name>
    <message>
        <source>Permissions (role, scenario; * matches any)</source>
        <translation>权限（角色、场景；* 匹配任意）</translation>
    </message>
    <message>
        <source>Risk</source>
        <translation>风险</translation>
    </message>
    <message>
        <source>&amp;Risk tier</source>
        <translation>风险等级(&amp;R)</translation>
    </message>
    <message>
        <source>Execution</source>
        <translation>执行</translation>
    </message>
    <message>
        <source>Counts the first try: 1 means never retry</source>
        <translation>包含第一次尝试：1 表示从不重试</translation>
    </message>
    <message>
        <source>Idempotency key required</source>
        <translation>需要幂等键</translation>
    </message>
    <message>
        <source>e.g. {session_id}:{message_id}:{tool}:{args_hash}</source>
        <translation>例如 {session_id}:{message_id}:{tool}:{args_hash}</translation>
    </message>
    <message>
        <source>Timeout &amp;tier</source>
        <translation>超时等级(&amp;T)</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>Max &amp;attempts</source>
        <translation>最大尝试次数(&amp;A)</translation>
    </message>
    <message>
        <source>Backoff base</source>
        <translation>退避基数</translation>
    </message>
    <message>
        <source>Backoff cap</source>
        <translation>退避上限</translation>
    </message>
    <message>
        <source>&amp;Key template</source>
        <translation>键模板(&amp;K)</translation>
    </message>
    <message>
        <source>Catalog</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>comma-separated, e.g. travel, invoices</source>
        <translation>以逗号分隔，例如 travel, invoices</translation>
    </message>
    <message>
        <source>e.g. finance</source>
        <translation>例如 finance</translation>
    </message>
    <message>
        <source>Ta&amp;gs</source>
        <translation>标签(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Domain</source>
        <translation>领域(&amp;D)</translation>
    </message>
    <message>
        <source>Deprecation</source>
        <translation>弃用</translation>
    </message>
    <message>
        <source>Deprecated</source>
        <translation>已弃用</translation>
    </message>
    <message>
        <source>name of the tool to use instead</source>
        <translation>应改用的工具名称</translation>
    </message>
    <message>
        <source>Re&amp;placement</source>
        <translation>替代工具(&amp;P)</translation>
    </message>
    <message>
        <source>Reas&amp;on</source>
        <translation>原因(&amp;O)</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>提供商</translation>
    </message>
    <message>
        <source>strict: constrain arguments to the schema (OpenAI, Anthropic)</source>
        <translation>strict：按 Schema 约束参数（OpenAI、Anthropic）</translation>
    </message>
    <message>
        <source>Defer loading (found through tool search)</source>
        <translation>延迟加载（通过工具搜索找到）</translation>
    </message>
    <message>
        <source>Send the example calls as input examples (Anthropic)</source>
        <translation>将示例调用作为输入示例发送（Anthropic）</translation>
    </message>
    <message>
        <source>e.g. direct, programmatic</source>
        <translation>例如 direct, programmatic</translation>
    </message>
    <message>
        <source>Who may call the tool: {callers}</source>
        <translation>可以调用该工具的调用方：{callers}</translation>
    </message>
    <message>
        <source>e.g. crm (OpenAI Responses)</source>
        <translation>例如 crm（OpenAI Responses）</translation>
    </message>
    <message>
        <source>Anthropic: stream the input as it is generated</source>
        <translation>Anthropic：边生成边流式传输输入</translation>
    </message>
    <message>
        <source>&amp;Strict</source>
        <translation>Strict(&amp;S)</translation>
    </message>
    <message>
        <source>Allowed &amp;callers</source>
        <translation>允许的调用方(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Namespace</source>
        <translation>命名空间(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Eager input streaming</source>
        <translation>即时输入流(&amp;E)</translation>
    </message>
    <message>
        <source>provider default</source>
        <translation>提供商默认</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
</context>
<context>
    <name>ConversationCard</name>
    <message>
        <source>{name} would answer:</source>
        <translation>{name} 会这样回答：</translation>
    </message>
    <message>
        <source>arguments so far</source>
        <translation>目前的参数</translation>
    </message>
    <message>
        <source>sent by the model</source>
        <translation>模型发送的参数</translation>
    </message>
    <message>
        <source>prepared by the pipeline</source>
        <translation>管道准备后的参数</translation>
    </message>
    <message>
        <source>rejected by the pipeline</source>
        <translation>管道拒绝了这次调用</translation>
    </message>
    <message>
        <source>… (full text in the inspector)</source>
        <translation>…（完整文本见检查器）</translation>
    </message>
    <message>
        <source>streaming…</source>
        <translation>流式输出中…</translation>
    </message>
    <message>
        <source>executing ({executor})</source>
        <translation>执行中（{executor}）</translation>
    </message>
    <message>
        <source>waiting for approval</source>
        <translation>等待批准</translation>
    </message>
    <message>
        <source>prepared</source>
        <translation>已准备</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation>（无名称）</translation>
    </message>
    <message>
        <source>result of {name}</source>
        <translation>{name} 的结果</translation>
    </message>
    <message>
        <source>result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>{role} (streaming)</source>
        <translation>{role}（流式输出中）</translation>
    </message>
</context>
<context>
    <name>DelegationView</name>
    <message>
        <source>Delegate to %1</source>
        <translation>委派给 %1</translation>
    </message>
    <message>
        <source>A task for the remote agent</source>
        <translation>交给远程智能体的任务</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Artifact (untrusted data)</source>
        <translation>产出物（不可信数据）</translation>
    </message>
    <message>
        <source>Sending to %1…</source>
        <translation>正在发送给 %1…</translation>
    </message>
    <message>
        <source>The agent needs more input: answer above to continue the same task.</source>
        <translation>该智能体需要更多输入：请在上方回答，以继续同一任务。</translation>
    </message>
    <message>
        <source>Task %1 ended: %2</source>
        <translation>任务 %1 已结束：%2</translation>
    </message>
    <message>
        <source>hop %1 · trace %2</source>
        <translation>跳数 %1 · 追踪 %2</translation>
    </message>
    <message>
        <source>Instruction-like text from the remote agent, shown as data, not followed: %1</source>
        <translation>远程智能体返回的类似指令的文本，仅作为数据显示，不会执行：%1</translation>
    </message>
</context>
<context>
    <name>DiffLabels</name>
    <message>
        <source>breaking</source>
        <translation>破坏性</translation>
    </message>
    <message>
        <source>behavioural</source>
        <translation>行为性</translation>
    </message>
    <message>
        <source>compatible</source>
        <translation>兼容</translation>
    </message>
    <message>
        <source>metadata</source>
        <translation>元数据</translation>
    </message>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>renamed</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>已更改</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>未更改</translation>
    </message>
    <message>
        <source>major</source>
        <translation>主版本</translation>
    </message>
    <message>
        <source>minor</source>
        <translation>次版本</translation>
    </message>
    <message>
        <source>patch</source>
        <translation>修订</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>usage</source>
        <translation>用法</translation>
    </message>
    <message>
        <source>preconditions</source>
        <translation>前置条件</translation>
    </message>
    <message>
        <source>returns</source>
        <translation>返回值</translation>
    </message>
    <message>
        <source>errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>examples</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>description</source>
        <translation>描述</translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <source>A: the older side</source>
        <translation>A：较旧的一侧</translation>
    </message>
    <message>
        <source>B: the newer side</source>
        <translation>B：较新的一侧</translation>
    </message>
    <message>
        <source>Swap</source>
        <translation>交换</translation>
    </message>
    <message>
        <source>Export Markdown…</source>
        <translation>导出 Markdown…</translation>
    </message>
    <message>
        <source>Save the report for a pull request</source>
        <translation>保存报告，用于拉取请求</translation>
    </message>
    <message>
        <source>Export JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Pick a registry</source>
        <translation>选择一个注册表</translation>
    </message>
    <message>
        <source>Changes &amp;&amp; description</source>
        <translation>变更和描述</translation>
    </message>
    <message>
        <source>Schema</source>
        <translation>Schema</translation>
    </message>
    <message>
        <source>Renames</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Lint &amp;&amp; tokens</source>
        <translation>检查和 token</translation>
    </message>
    <message>
        <source>No registry open</source>
        <translation>未打开注册表</translation>
    </message>
    <message>
        <source>Cannot list versions: {exc}</source>
        <translation>无法列出版本：{exc}</translation>
    </message>
    <message>
        <source>draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>Diff failed: {message}</source>
        <translation>差异计算失败：{message}</translation>
    </message>
    <message>
        <source>no changes</source>
        <translation>无变更</translation>
    </message>
    <message>
        <source>Suggested bump: {level} — {reasons}</source>
        <translation>建议升级：{level} — {reasons}</translation>
    </message>
    <message>
        <source>{a_label} → {b_label} · {changed} of {count} tools differ</source>
        <translation>{a_label} → {b_label} · {count} 个工具中有 {changed} 个不同</translation>
    </message>
    <message>
        <source>Renames ({count})</source>
        <translation>重命名（{count}）</translation>
    </message>
    <message>
        <source>Registry-level changes</source>
        <translation>注册表级变更</translation>
    </message>
    <message>
        <source>&lt;b&gt;{tool}&lt;/b&gt; — &lt;span style=&quot;color:{colour}&quot;&gt;{status}{worst}&lt;/span&gt;</source>
        <translation>&lt;b&gt;{tool}&lt;/b&gt; — &lt;span style=&quot;color:{colour}&quot;&gt;{status}{worst}&lt;/span&gt;</translation>
    </message>
    <message>
        <source>No description block changed.</source>
        <translation>没有描述块发生变化。</translation>
    </message>
    <message>
        <source>(not in A)</source>
        <translation>（A 中没有）</translation>
    </message>
    <message>
        <source>(not in B)</source>
        <translation>（B 中没有）</translation>
    </message>
    <message>
        <source>Export diff as Markdown</source>
        <translation>将差异导出为 Markdown</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Export diff as JSON</source>
        <translation>将差异导出为 JSON</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Not exported: {exc}</source>
        <translation>未导出：{exc}</translation>
    </message>
    <message>
        <source>Exported {name}</source>
        <translation>已导出 {name}</translation>
    </message>
    <message>
        <source>Lint was skipped for this diff.</source>
        <translation>此次差异比较跳过了检查。</translation>
    </message>
    <message>
        <source>Lint ({profile}): {before} → {after} findings — {added} added, {fixed} fixed</source>
        <translation>检查（{profile}）：{before} → {after} 个发现 — 新增 {added} 个，修复 {fixed} 个</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>Fixed</source>
        <translation>已修复</translation>
    </message>
    <message>
        <source>(registry)</source>
        <translation>（注册表）</translation>
    </message>
    <message>
        <source>{count} findings of removed tools went with them.</source>
        <translation>已移除工具的 {count} 个发现随之消失。</translation>
    </message>
    <message>
        <source>Tokens ({method}): {before} → {after} ({delta:+d})</source>
        <translation>Token（{method}）：{before} → {after}（{delta:+d}）</translation>
    </message>
</context>
<context>
    <name>DoctorDialog</name>
    <message>
        <source>kept {kept} of {total} tokens (counted with {method}); {dropped} message(s) before messages[{cut_at}] dropped</source>
        <translation>保留 {total} 个 token 中的 {kept} 个（用 {method} 计数）；丢弃了 messages[{cut_at}] 之前的 {dropped} 条消息</translation>
    </message>
    <message>
        <source>Repair</source>
        <translation>修复</translation>
    </message>
    <message>
        <source>Convert</source>
        <translation>转换</translation>
    </message>
    <message>
        <source>Trim</source>
        <translation>裁剪</translation>
    </message>
    <message>
        <source>OpenAI chat</source>
        <translation>OpenAI Chat</translation>
    </message>
    <message>
        <source>OpenAI Responses</source>
        <translation>OpenAI Responses</translation>
    </message>
    <message>
        <source>Anthropic messages</source>
        <translation>Anthropic Messages</translation>
    </message>
    <message>
        <source>note: {note}</source>
        <translation>注：{note}</translation>
    </message>
    <message>
        <source>kept {kept} of {total} tokens (estimated); {dropped} message(s) before messages[{cut_at}] dropped</source>
        <translation>保留 {total} 个 token 中的 {kept} 个（估算）；丢弃了 messages[{cut_at}] 之前的 {dropped} 条消息</translation>
    </message>
    <message>
        <source>even the last safe tail needs {kept} tokens</source>
        <translation>即使最后一个安全尾段也需要 {kept} 个 token</translation>
    </message>
    <message>
        <source>{messages} messages · {calls} calls · {problems} pairing problem(s)</source>
        <translation>{messages} 条消息 · {calls} 次调用 · {problems} 个配对问题</translation>
    </message>
    <message>
        <source>{action} — {session}</source>
        <translation>{action} — {session}</translation>
    </message>
    <message>
        <source>Keep system messages</source>
        <translation>保留系统消息</translation>
    </message>
    <message>
        <source>Optional: a summary standing for what is cut</source>
        <translation>可选：用一段摘要代替被裁剪的内容</translation>
    </message>
    <message>
        <source>Token budget</source>
        <translation>Token 预算</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Export as</source>
        <translation>导出为</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>提供商</translation>
    </message>
    <message>
        <source>Convert to</source>
        <translation>转换为</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <source>After</source>
        <translation>之后</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>变更</translation>
    </message>
    <message>
        <source>Save as new session</source>
        <translation>另存为新会话</translation>
    </message>
    <message>
        <source>Store the result as a new session linked to this one</source>
        <translation>将结果保存为与此会话关联的新会话</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Write the result in the chosen provider&apos;s wire shape</source>
        <translation>按所选提供商的传输格式写出结果</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>No change needed: the history is already valid</source>
        <translation>无需更改：历史记录已经有效</translation>
    </message>
    <message>
        <source>Saved as session {id}</source>
        <translation>已保存为会话 {id}</translation>
    </message>
    <message>
        <source>Not exported</source>
        <translation>未导出</translation>
    </message>
    <message>
        <source>Could not write {path}: {error}</source>
        <translation>无法写入 {path}：{error}</translation>
    </message>
    <message>
        <source>Exported to {name}</source>
        <translation>已导出到 {name}</translation>
    </message>
</context>
<context>
    <name>EvalRunController</name>
    <message>
        <source>A run is already going; cancel it first</source>
        <translation>已有运行在进行；请先取消</translation>
    </message>
    <message>
        <source>Choose at least one model profile</source>
        <translation>请至少选择一个模型配置</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
</context>
<context>
    <name>EvalsView</name>
    <message>
        <source>Eval set</source>
        <extracomment>How often a running run&apos;s report is read again (at least; longer for big runs).</extracomment>
        <translation>评测集</translation>
    </message>
    <message>
        <source>New set…</source>
        <translation>新建评测集…</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <source>Add or replace a set from a .jsonl file</source>
        <translation>从 .jsonl 文件添加或替换评测集</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Write the set as a .jsonl file</source>
        <translation>将评测集写出为 .jsonl 文件</translation>
    </message>
    <message>
        <source>Delete set</source>
        <translation>删除评测集</translation>
    </message>
    <message>
        <source>Run…</source>
        <translation>运行…</translation>
    </message>
    <message>
        <source>Run the set against A and B with model profiles</source>
        <translation>用模型配置对 A 和 B 运行该评测集</translation>
    </message>
    <message>
        <source>Set:</source>
        <translation>评测集：</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>用例</translation>
    </message>
    <message>
        <source>Filter by id or words</source>
        <translation>按 ID 或词语筛选</translation>
    </message>
    <message>
        <source>Tag</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Any result</source>
        <translation>任意结果</translation>
    </message>
    <message>
        <source>Passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>Add case…</source>
        <translation>添加用例…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行记录</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Run the selected run again: what is stored is kept, the rest is sent</source>
        <translation>再次运行所选的运行：已存储的结果保留，其余的重新发送</translation>
    </message>
    <message>
        <source>Cancel run</source>
        <translation>取消运行</translation>
    </message>
    <message>
        <source>Report</source>
        <translation>报告</translation>
    </message>
    <message>
        <source>Run progress</source>
        <translation>运行进度</translation>
    </message>
    <message>
        <source>No run going.</source>
        <translation>没有正在进行的运行。</translation>
    </message>
    <message>
        <source>Set name:</source>
        <translation>评测集名称：</translation>
    </message>
    <message>
        <source>Import eval set</source>
        <translation>导入评测集</translation>
    </message>
    <message>
        <source>Eval sets (*.jsonl)</source>
        <translation>评测集 (*.jsonl)</translation>
    </message>
    <message>
        <source>Evals</source>
        <translation>评测</translation>
    </message>
    <message>
        <source>Open a registry to see its eval sets.</source>
        <translation>打开一个注册表以查看其评测集。</translation>
    </message>
    <message>
        <source>&lt;b&gt;{registry}&lt;/b&gt;: eval sets, runs and A vs B reports</source>
        <translation>&lt;b&gt;{registry}&lt;/b&gt;：评测集、运行记录和 A 对比 B 报告</translation>
    </message>
    <message>
        <source>(no eval set yet)</source>
        <translation>（尚无评测集）</translation>
    </message>
    <message>
        <source>Any tag</source>
        <translation>任意标签</translation>
    </message>
    <message>
        <source>{shown} of {total} cases</source>
        <translation>{total} 个用例中的 {shown} 个</translation>
    </message>
    <message>
        <source>New eval set</source>
        <translation>新建评测集</translation>
    </message>
    <message>
        <source>A set named {name} exists already</source>
        <translation>名为 {name} 的评测集已存在</translation>
    </message>
    <message>
        <source>Created eval set {name}</source>
        <translation>已创建评测集 {name}</translation>
    </message>
    <message>
        <source>{path}: not UTF-8 text</source>
        <translation>{path}：不是 UTF-8 文本</translation>
    </message>
    <message>
        <source>Imported {count} cases into {name}</source>
        <translation>已向 {name} 导入 {count} 个用例</translation>
    </message>
    <message>
        <source>Export eval set</source>
        <translation>导出评测集</translation>
    </message>
    <message>
        <source>Exported to {path}</source>
        <translation>已导出到 {path}</translation>
    </message>
    <message>
        <source>Delete the eval set {name}? Its runs stay.</source>
        <translation>删除评测集 {name}？其运行记录会保留。</translation>
    </message>
    <message>
        <source>Deleted eval set {name}</source>
        <translation>已删除评测集 {name}</translation>
    </message>
    <message>
        <source>Delete {count} case(s)?</source>
        <translation>删除 {count} 个用例？</translation>
    </message>
    <message>
        <source>The set {name} was changed elsewhere; it was read again</source>
        <translation>评测集 {name} 已在别处被修改；已重新读取</translation>
    </message>
    <message>
        <source>Saved {count} cases to {name}</source>
        <translation>已将 {count} 个用例保存到 {name}</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Set</source>
        <translation>评测集</translation>
    </message>
    <message>
        <source>Variants</source>
        <translation>变体</translation>
    </message>
    <message>
        <source>Profiles</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <source>Results from run {run} ({variant})</source>
        <translation>运行 {run} 的结果（{variant}）</translation>
    </message>
    <message>
        <source>all variants</source>
        <translation>所有变体</translation>
    </message>
    <message>
        <source>Run {run} starting…</source>
        <translation>运行 {run} 正在开始…</translation>
    </message>
    <message>
        <source>{done} of {total} attempts ({resumed} resumed, {cached} cached, {errors} errors, {skipped} skipped) · {requests} requests · {tokens} tokens</source>
        <translation>{total} 次尝试中已完成 {done} 次（继续 {resumed}，缓存 {cached}，错误 {errors}，跳过 {skipped}）· {requests} 个请求 · {tokens} 个 token</translation>
    </message>
    <message>
        <source>Passing so far: {partial}</source>
        <translation>目前通过：{partial}</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>cancelled (resume it later)</source>
        <translation>已取消（可稍后继续）</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Run {run} {status}</source>
        <translation>运行 {run} {status}</translation>
    </message>
    <message>
        <source>Export eval report</source>
        <translation>导出评测报告</translation>
    </message>
    <message>
        <source>Report written to {path}</source>
        <translation>报告已写入 {path}</translation>
    </message>
</context>
<context>
    <name>EventLogView</name>
    <message>
        <source>Event log</source>
        <translation>事件日志</translation>
    </message>
    <message>
        <source>No run events. A run in the Playground, or a replay (Replay as model…), records every step here: requests, tool calls, repairs and results. Imported logs carry only their messages.</source>
        <translation>没有运行事件。在调试台中运行，或进行回放（作为模型回放…），都会在这里记录每一步：请求、工具调用、修复和结果。导入的日志只包含消息。</translation>
    </message>
</context>
<context>
    <name>ExamplesTableWidget</name>
    <message>
        <source>example {row}: line {line}, column {column}: {message}</source>
        <translation>示例 {row}：第 {line} 行，第 {column} 列：{message}</translation>
    </message>
    <message>
        <source>example {row}: arguments must be a JSON object</source>
        <translation>示例 {row}：参数必须是 JSON 对象</translation>
    </message>
    <message>
        <source>example {row}:</source>
        <translation>示例 {row}：</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Choose where to write the export.</source>
        <translation>请选择导出的写入位置。</translation>
    </message>
    <message>
        <source>{name} is a file; the &apos;dir&apos; format writes a folder.</source>
        <translation>{name} 是一个文件；“dir”格式写出的是文件夹。</translation>
    </message>
    <message>
        <source>{name} is a folder; the {format!r} format writes one file.</source>
        <translation>{name} 是一个文件夹；{format!r} 格式只写出一个文件。</translation>
    </message>
    <message>
        <source>Export {registry}</source>
        <translation>导出 {registry}</translation>
    </message>
    <message>
        <source>Draft (the working copy as shown)</source>
        <translation>草稿（当前显示的工作副本）</translation>
    </message>
    <message>
        <source>Version {number} (published)</source>
        <translation>版本 {number}（已发布）</translation>
    </message>
    <message>
        <source>dir (registry-as-code folder)</source>
        <translation>dir（注册表即代码文件夹）</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>&amp;Export:</source>
        <translation>导出(&amp;E)：</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Destination:</source>
        <translation>目标(&amp;D)：</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Exactly the published snapshot of version {source}.</source>
        <translation>完全等同于版本 {source} 的已发布快照。</translation>
    </message>
    <message>
        <source>Your unsaved changes are included: the working copy is exported as shown.</source>
        <translation>包含未保存的修改：按当前显示的工作副本导出。</translation>
    </message>
    <message>
        <source>The saved draft (there are no unsaved changes).</source>
        <translation>已保存的草稿（没有未保存的修改）。</translation>
    </message>
    <message>
        <source>an empty folder, or an earlier export of this registry</source>
        <translation>一个空文件夹，或此注册表之前导出的文件夹</translation>
    </message>
    <message>
        <source>a .json file</source>
        <translation>一个 .json 文件</translation>
    </message>
    <message>
        <source>The file exists and will be overwritten.</source>
        <translation>文件已存在，将被覆盖。</translation>
    </message>
    <message>
        <source>Export into a folder</source>
        <translation>导出到文件夹</translation>
    </message>
    <message>
        <source>Export to a file</source>
        <translation>导出到文件</translation>
    </message>
    <message>
        <source>JSON (*.json);;All files (*)</source>
        <translation>JSON (*.json);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>FlipsModel</name>
    <message>
        <source>broken</source>
        <translation>变坏</translation>
    </message>
    <message>
        <source>fixed</source>
        <translation>修复</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>未更改</translation>
    </message>
</context>
<context>
    <name>GuardWidget</name>
    <message>
        <source>Calls each side needs before anything but hold</source>
        <translation>每一侧需要达到的调用次数，之前只会保持不动</translation>
    </message>
    <message>
        <source>Largest tolerated drop of the canary&apos;s success rate</source>
        <translation>金丝雀成功率可容忍的最大降幅</translation>
    </message>
    <message>
        <source>Significance level of the one-sided z-test</source>
        <translation>单侧 z 检验的显著性水平</translation>
    </message>
    <message>
        <source>Canary p95 above this multiple of stable&apos;s rolls back</source>
        <translation>金丝雀 p95 超过 stable 的此倍数时回滚</translation>
    </message>
    <message>
        <source>Recompute</source>
        <translation>重新计算</translation>
    </message>
    <message>
        <source>Min. samples</source>
        <translation>最少样本</translation>
    </message>
    <message>
        <source>Max. success drop</source>
        <translation>最大成功率降幅</translation>
    </message>
    <message>
        <source>p-value</source>
        <translation>p 值</translation>
    </message>
    <message>
        <source>Max. p95 ratio</source>
        <translation>最大 p95 比值</translation>
    </message>
    <message>
        <source>Pick a registry to see its canary&apos;s health.</source>
        <translation>选择一个注册表以查看其金丝雀的健康状况。</translation>
    </message>
    <message>
        <source>Computing guard metrics…</source>
        <translation>正在计算守护指标…</translation>
    </message>
    <message>
        <source>No canary: set a canary version to compare it with stable.</source>
        <translation>没有金丝雀：请设置一个金丝雀版本，与 stable 进行比较。</translation>
    </message>
    <message>
        <source>Hold</source>
        <translation>保持</translation>
    </message>
    <message>
        <source>Promote</source>
        <translation>提升</translation>
    </message>
    <message>
        <source>Roll back</source>
        <translation>回滚</translation>
    </message>
    <message>
        <source>Guard metrics could not be computed: {message}</source>
        <translation>无法计算守护指标：{message}</translation>
    </message>
</context>
<context>
    <name>HeatMapView</name>
    <message>
        <source>Confusion matrix</source>
        <translation>混淆矩阵</translation>
    </message>
</context>
<context>
    <name>HttpTargetDialog</name>
    <message>
        <source>HTTP target — {name}</source>
        <translation>HTTP 目标 — {name}</translation>
    </message>
    <message>
        <source>&lt;b&gt;{value}&lt;/b&gt; — {value2}</source>
        <translation>&lt;b&gt;{value}&lt;/b&gt; — {value2}</translation>
    </message>
    <message>
        <source>https://api.example/tickets/{ticket_id}</source>
        <translation>https://api.example/tickets/{ticket_id}</translation>
    </message>
    <message>
        <source>Add header</source>
        <translation>添加请求头</translation>
    </message>
    <message>
        <source>Add Authorization</source>
        <translation>添加 Authorization</translation>
    </message>
    <message>
        <source>Authorization: Bearer {env:NAME}: the token is read from the environment variable when a call is made and never stored</source>
        <translation>Authorization: Bearer {env:NAME}：令牌在调用时从环境变量读取，永不存储</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Empty: POST, PUT and PATCH send the arguments as JSON; GET and DELETE send no body.
A template: {&quot;ids&quot;: &quot;{invoice_ids}&quot;, &quot;note&quot;: &quot;by {employee_id}&quot;}</source>
        <translation>留空：POST、PUT 和 PATCH 以 JSON 发送参数；GET 和 DELETE 不发送请求体。
模板示例：{&quot;ids&quot;: &quot;{invoice_ids}&quot;, &quot;note&quot;: &quot;by {employee_id}&quot;}</translation>
    </message>
    <message>
        <source>https://api.example (one base URL per line)</source>
        <translation>https://api.example（每行一个基础 URL）</translation>
    </message>
    <message>
        <source>Every http tool of this registry may call only these</source>
        <translation>此注册表的每个 http 工具只能调用这些地址</translation>
    </message>
    <message>
        <source>Run {name} on this target (executor: http)</source>
        <translation>在此目标上运行 {name}（执行器：HTTP）</translation>
    </message>
    <message>
        <source>Request template</source>
        <translation>请求模板</translation>
    </message>
    <message>
        <source>&amp;URL</source>
        <translation>URL(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Headers</source>
        <translation>请求头(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Body</source>
        <translation>请求体(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Allowed base URLs
(this registry)</source>
        <translation>允许的基础 URL
（此注册表）(&amp;A)</translation>
    </message>
    <message>
        <source>Arguments as the pipeline hands them over (after aliases)</source>
        <translation>流水线交出的参数（别名映射之后）</translation>
    </message>
    <message>
        <source>Placeholders, sample and preview</source>
        <translation>占位符、样例和预览</translation>
    </message>
    <message>
        <source>Sample &amp;arguments:</source>
        <translation>样例参数(&amp;A)：</translation>
    </message>
    <message>
        <source>What a call sends:</source>
        <translation>一次调用发送的内容：</translation>
    </message>
    <message>
        <source>✓ No problems: Save stores the target for this registry.</source>
        <translation>✓ 没有问题：“保存”会为此注册表存储该目标。</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:{colour}&apos;&gt;✗ Not saved: {value}&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:{colour}&apos;&gt;✗ 未保存：{value}&lt;/span&gt;</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <source>Choose a file or a folder to import.</source>
        <translation>请选择要导入的文件或文件夹。</translation>
    </message>
    <message>
        <source>{path}: no such file or folder.</source>
        <translation>{path}：文件或文件夹不存在。</translation>
    </message>
    <message>
        <source>{name} is a folder; only the &apos;dir&apos; format (or auto) reads folders.</source>
        <translation>{name} 是一个文件夹；只有“dir”格式（或自动）才能读取文件夹。</translation>
    </message>
    <message>
        <source>The &apos;dir&apos; format reads a registry folder, not a file.</source>
        <translation>“dir”格式读取的是注册表文件夹，而不是文件。</translation>
    </message>
    <message>
        <source>A registry named {name!r} already exists: tick &apos;Replace its draft&apos; or enter another name.</source>
        <translation>名为 {name!r} 的注册表已存在：请勾选“替换其草稿”，或输入其他名称。</translation>
    </message>
    <message>
        <source>Import tools</source>
        <translation>导入工具</translation>
    </message>
    <message>
        <source>Import tool definitions from a provider file (OpenAI, Anthropic, Gemini, MCP…), an OpenAPI document (you pick its operations next), a studio document, or a registry folder (registry-as-code).</source>
        <translation>从提供商文件（OpenAI、Anthropic、Gemini、MCP…）、OpenAPI 文档（下一步选择其中的操作）、Studio 文档或注册表文件夹（注册表即代码）导入工具定义。</translation>
    </message>
    <message>
        <source>a .json file or a registry folder</source>
        <translation>一个 .json 文件或注册表文件夹</translation>
    </message>
    <message>
        <source>File…</source>
        <translation>文件…</translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation>文件夹…</translation>
    </message>
    <message>
        <source>auto (detect from the content)</source>
        <translation>自动（根据内容识别）</translation>
    </message>
    <message>
        <source>from the file</source>
        <translation>取自文件</translation>
    </message>
    <message>
        <source>Replace its draft if the registry exists</source>
        <translation>若注册表已存在，则替换其草稿</translation>
    </message>
    <message>
        <source>Like --replace-draft: the imported tools become the draft; published versions are kept</source>
        <translation>同 --replace-draft：导入的工具成为草稿；已发布的版本保留</translation>
    </message>
    <message>
        <source>&amp;Source:</source>
        <translation>来源(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Registry name:</source>
        <translation>注册表名称(&amp;R)：</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>from the file (else {stem!r})</source>
        <translation>取自文件（否则为 {stem!r}）</translation>
    </message>
    <message>
        <source>Import tools from a file</source>
        <translation>从文件导入工具</translation>
    </message>
    <message>
        <source>JSON or YAML (*.json *.yaml *.yml);;All files (*)</source>
        <translation>JSON 或 YAML (*.json *.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Import a registry folder</source>
        <translation>导入注册表文件夹</translation>
    </message>
</context>
<context>
    <name>ImportLogDialog</name>
    <message>
        <source>Import session log</source>
        <translation>导入会话日志</translation>
    </message>
    <message>
        <source>A .json, .jsonl or .traj log, or a folder of them</source>
        <translation>一个 .json、.jsonl 或 .traj 日志，或包含它们的文件夹</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>auto detects each conversation&apos;s format</source>
        <translation>自动识别每段对话的格式</translation>
    </message>
    <message>
        <source>Import the tools as a registry draft</source>
        <translation>将工具导入为注册表草稿</translation>
    </message>
    <message>
        <source>The tool definitions that came with the log</source>
        <translation>日志附带的工具定义</translation>
    </message>
    <message>
        <source>registry name</source>
        <translation>注册表名称</translation>
    </message>
    <message>
        <source>Choose a file and Import.</source>
        <translation>选择一个文件，然后点击“导入”。</translation>
    </message>
    <message>
        <source>Errors and warnings appear here</source>
        <translation>错误和警告显示在这里</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Reading {name}…</source>
        <translation>正在读取 {name}…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Could not read the file: {message}</source>
        <translation>无法读取文件：{message}</translation>
    </message>
    <message>
        <source>error: {message}</source>
        <translation>错误：{message}</translation>
    </message>
    <message>
        <source>warning: {message}</source>
        <translation>警告：{message}</translation>
    </message>
    <message>
        <source>Cancelled; kept 1 session</source>
        <translation>已取消；保留了 1 个会话</translation>
    </message>
    <message>
        <source>Cancelled; kept {count} sessions</source>
        <translation>已取消；保留了 {count} 个会话</translation>
    </message>
    <message>
        <source>Imported 1 session</source>
        <translation>已导入 1 个会话</translation>
    </message>
    <message>
        <source>Imported {count} sessions</source>
        <translation>已导入 {count} 个会话</translation>
    </message>
    <message>
        <source>{head} · {errors} error(s) · {warnings} warning(s)</source>
        <translation>{head} · {errors} 个错误 · {warnings} 个警告</translation>
    </message>
    <message>
        <source>the log came with no tool definitions</source>
        <translation>日志未附带工具定义</translation>
    </message>
    <message>
        <source>no registry name for the tools</source>
        <translation>没有为这些工具指定注册表名称</translation>
    </message>
    <message>
        <source>tools not imported</source>
        <translation>工具未导入</translation>
    </message>
    <message>
        <source>tools not imported: {error}</source>
        <translation>工具未导入：{error}</translation>
    </message>
    <message>
        <source>{count} tool(s) in the draft of {name}</source>
        <translation>{name} 的草稿中有 {count} 个工具</translation>
    </message>
</context>
<context>
    <name>InspectorWidget</name>
    <message>
        <source>Raw</source>
        <translation>原始</translation>
    </message>
    <message>
        <source>Intent</source>
        <translation>意图</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Response</source>
        <translation>响应</translation>
    </message>
    <message>
        <source>Raw JSON</source>
        <translation>原始 JSON</translation>
    </message>
    <message>
        <source>Model intent</source>
        <translation>模型意图</translation>
    </message>
    <message>
        <source>Request snapshot</source>
        <translation>请求快照</translation>
    </message>
    <message>
        <source>Response summary</source>
        <translation>响应摘要</translation>
    </message>
    <message>
        <source>Select a message, call or result</source>
        <translation>选择一条消息、调用或结果</translation>
    </message>
    <message>
        <source>No tokens used yet</source>
        <translation>尚未使用 token</translation>
    </message>
    <message>
        <source>not a tool call</source>
        <translation>不是工具调用</translation>
    </message>
    <message>
        <source>no event for this call yet</source>
        <translation>此调用尚无事件</translation>
    </message>
    <message>
        <source>message {number}</source>
        <translation>第 {number} 条消息</translation>
    </message>
    <message>
        <source>streaming</source>
        <translation>流式输出中</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>call</source>
        <translation>调用</translation>
    </message>
    <message>
        <source>result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>system</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>{kind} · {label} · {where}</source>
        <translation>{kind} · {label} · {where}</translation>
    </message>
    <message>
        <source>Tokens — {turns}
Total: {total_in} in / {total_out} out</source>
        <translation>Token — {turns}
合计：输入 {total_in} / 输出 {total_out}</translation>
    </message>
</context>
<context>
    <name>JobDialog</name>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
<context>
    <name>JobPanel</name>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
</context>
<context>
    <name>JsonTab</name>
    <message>
        <source>The form changed; your JSON text has errors and was kept.</source>
        <translation>表单已更改；你的 JSON 文本有错误，已予保留。</translation>
    </message>
</context>
<context>
    <name>JsonTabWidget</name>
    <message>
        <source>line {line}, column {column}: {message}</source>
        <translation>第 {line} 行，第 {column} 列：{message}</translation>
    </message>
</context>
<context>
    <name>LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
</context>
<context>
    <name>LintController</name>
    <message>
        <source>A suppression needs a reason; nothing was changed.</source>
        <translation>抑制需要填写原因；未做任何更改。</translation>
    </message>
    <message>
        <source>The settings of {name} were changed elsewhere ({error}). Nothing was overwritten; reopen the registry to see what is stored, then try again.</source>
        <translation>{name} 的设置已在别处被修改（{error}）。未覆盖任何内容；请重新打开注册表查看已存储的内容，然后重试。</translation>
    </message>
    <message>
        <source>The quick fix does not apply any more: {error}</source>
        <translation>快速修复已不再适用：{error}</translation>
    </message>
</context>
<context>
    <name>LintOperations</name>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Similar tools</source>
        <translation>相似工具</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>评分</translation>
    </message>
    <message>
        <source>Lint findings of the shown draft (F8: next problem)</source>
        <translation>当前草稿的检查发现（F8：下一个问题）</translation>
    </message>
    <message>
        <source>Lint failed: {message}</source>
        <translation>检查失败：{message}</translation>
    </message>
    <message>
        <source>published versions are not linted</source>
        <translation>已发布的版本不做检查</translation>
    </message>
    <message>
        <source>linting…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>Quick fix not applied</source>
        <translation>未应用快速修复</translation>
    </message>
    <message>
        <source>Applied: {label}</source>
        <translation>已应用：{label}</translation>
    </message>
    <message>
        <source>Suppressed</source>
        <translation>已抑制</translation>
    </message>
    <message>
        <source>Disabled {rule_id}</source>
        <translation>已禁用 {rule_id}</translation>
    </message>
    <message>
        <source>Lint settings not saved</source>
        <translation>检查设置未保存</translation>
    </message>
    <message>
        <source>{done}; stored in the registry settings</source>
        <translation>{done}；已保存到注册表设置</translation>
    </message>
</context>
<context>
    <name>LintPrompts</name>
    <message>
        <source>Suppress finding</source>
        <translation>抑制发现</translation>
    </message>
    <message>
        <source>Why is this {rule_id} finding on {tool} acceptable? The reason is stored with the registry and shown in exports.</source>
        <translation>为什么 {tool} 上的这个 {rule_id} 发现可以接受？原因会随注册表保存，并显示在导出内容中。</translation>
    </message>
    <message>
        <source>the registry</source>
        <translation>注册表</translation>
    </message>
    <message>
        <source>Reason required</source>
        <translation>需要填写原因</translation>
    </message>
    <message>
        <source>A suppression needs a reason.</source>
        <translation>抑制需要填写原因。</translation>
    </message>
    <message>
        <source>{id} ({category}, {severity} by default)</source>
        <translation>{id}（{category}，默认{severity}）</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Lint</source>
        <translation>检查(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Profile</source>
        <translation>配置(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Editor</source>
        <translation>编辑器</translation>
    </message>
    <message>
        <source>Playground</source>
        <translation>调试台</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>发布管理</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Read this mode&apos;s data again</source>
        <translation>重新读取此模式的数据</translation>
    </message>
    <message>
        <source>Versions</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>The registry being edited</source>
        <translation>正在编辑的注册表</translation>
    </message>
    <message>
        <source>Filter tools (Ctrl+F)</source>
        <translation>筛选工具（Ctrl+F）</translation>
    </message>
    <message>
        <source>Lint: ✕ errors · ! warnings · ✓ clean
Risk: R read · W write · D destructive</source>
        <translation>检查：✕ 错误 · ! 警告 · ✓ 无问题
风险：R 只读 · W 写入 · D 破坏性</translation>
    </message>
    <message>
        <source>Back to draft</source>
        <translation>返回草稿</translation>
    </message>
    <message>
        <source>version {number} of {name}</source>
        <translation>{name} 的版本 {number}</translation>
    </message>
    <message>
        <source>1 tool</source>
        <translation>1 个工具</translation>
    </message>
    <message>
        <source>{count} tools</source>
        <translation>{count} 个工具</translation>
    </message>
    <message>
        <source>Opening {what} — {tools}…</source>
        <translation>正在打开{what} — {tools}…</translation>
    </message>
    <message>
        <source>Evals</source>
        <translation>评测</translation>
    </message>
    <message>
        <source>Skills &amp; agents</source>
        <translation>技能和智能体</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭提示</translation>
    </message>
    <message>
        <source>This registry contains Chinese (or other CJK) text, but no installed font can show it: it appears as boxes. Install a CJK font (on Debian or Ubuntu: sudo apt install {package}) and restart the studio.</source>
        <translation>此注册表包含中文（或其他 CJK）文本，但没有已安装的字体能够显示，文字会显示为方框。请安装 CJK 字体（Debian 或 Ubuntu：sudo apt install {package}），然后重启 Studio。</translation>
    </message>
    <message>
        <source>Opening registry</source>
        <translation>正在打开注册表</translation>
    </message>
    <message>
        <source>Cannot open registry</source>
        <translation>无法打开注册表</translation>
    </message>
    <message>
        <source>Version failed its integrity check</source>
        <translation>版本未通过完整性检查</translation>
    </message>
    <message>
        <source>Version {number} of {name} was not opened: {error}.</source>
        <translation>{name} 的版本 {number} 未打开：{error}。</translation>
    </message>
    <message>
        <source>The stored document no longer matches the hash recorded when it was published, so it may have been changed outside the studio.</source>
        <translation>存储的文档与发布时记录的哈希值不再一致，可能在 Studio 之外被修改过。</translation>
    </message>
    <message>
        <source>Cannot open version</source>
        <translation>无法打开版本</translation>
    </message>
    <message>
        <source>Version {number} (published, read-only) of {name}</source>
        <translation>{name} 的版本 {number}（已发布，只读）</translation>
    </message>
    <message>
        <source>An example that is flawed on purpose: tools imported as-is from a legacy backend. The Problems panel shows what lint finds; travel-reimbursement shows the same ideas done well.</source>
        <translation>这是一个故意带有缺陷的示例：工具原样导入自一个遗留后端。“问题”面板显示检查发现的内容；travel-reimbursement 展示了同样的思路的良好做法。</translation>
    </message>
    <message>
        <source>The exemplary example: structured descriptions, aliases and risk tiers done well. Copy what you like.</source>
        <translation>范例：结构化描述、别名和风险等级都做得很好。欢迎借鉴。</translation>
    </message>
    <message>
        <source>Duplicate tool</source>
        <translation>复制工具</translation>
    </message>
    <message>
        <source>Not saved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <source>{name} was not saved; fix these first (your changes are kept):</source>
        <translation>{name} 未保存；请先修正以下问题（你的修改已保留）：</translation>
    </message>
    <message>
        <source>{name} was not saved: {error}</source>
        <translation>{name} 未保存：{error}</translation>
    </message>
    <message>
        <source>Saved {name}</source>
        <translation>已保存 {name}</translation>
    </message>
    <message>
        <source>Published {name} version {label}</source>
        <translation>已发布 {name} 版本 {label}</translation>
    </message>
    <message>
        <source>No registry open</source>
        <translation>未打开注册表</translation>
    </message>
    <message>
        <source>{name} v{version} (read-only)</source>
        <translation>{name} v{version}（只读）</translation>
    </message>
    <message>
        <source>version {number}</source>
        <translation>版本 {number}</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>只读</translation>
    </message>
    <message>
        <source>last saved {time}</source>
        <translation>上次保存于 {time}</translation>
    </message>
    <message>
        <source>stored {time}</source>
        <translation>存储于 {time}</translation>
    </message>
    <message>
        <source>unsaved changes</source>
        <translation>未保存的修改</translation>
    </message>
    <message>
        <source>saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <source>Open or import a registry in the Editor (Ctrl+1) to compare its versions.</source>
        <translation>请在编辑器（Ctrl+1）中打开或导入一个注册表，以比较其版本。</translation>
    </message>
    <message>
        <source>Nothing to compare yet</source>
        <translation>尚无可比较的内容</translation>
    </message>
    <message>
        <source>{registry} has no published version. A diff compares two versions, or a version with the draft: publish the draft, and every later edit shows here as breaking, behavioural or compatible.</source>
        <translation>{registry} 没有已发布的版本。差异比较的是两个版本，或一个版本与草稿：发布草稿后，之后的每次修改都会在这里显示为破坏性、行为性或兼容的变更。</translation>
    </message>
    <message>
        <source>Publish the draft…</source>
        <translation>发布草稿…</translation>
    </message>
</context>
<context>
    <name>McpCheckDialog</name>
    <message>
        <source>Check {registry} against its MCP server</source>
        <translation>对照 MCP 服务器检查 {registry}</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Compare what the live MCP server lists now with a pinned version of {registry}: every changed tool is named with its description word diff, and the live descriptions are checked for poisoning. Write secrets as {{env:NAME}}: they are read from the environment when connecting and never stored.</source>
        <translation>将 MCP 服务器当前列出的内容与 {registry} 的固定版本进行比较：每个有变化的工具都会列出其描述的逐词差异，并检查当前描述是否被投毒。密钥请写成 {{env:NAME}}：连接时从环境变量读取，永不存储。</translation>
    </message>
    <message>
        <source>&amp;Pinned:</source>
        <translation>固定版本(&amp;P)：</translation>
    </message>
    <message>
        <source>The registry has no published version to check against; publish one first.</source>
        <translation>该注册表没有可供对照的已发布版本；请先发布一个版本。</translation>
    </message>
</context>
<context>
    <name>McpImportDialog</name>
    <message>
        <source>Enter a URL.</source>
        <translation>请输入 URL。</translation>
    </message>
    <message>
        <source>Enter the command that starts the server.</source>
        <translation>请输入启动服务器的命令。</translation>
    </message>
    <message>
        <source>A registry named {name!r} already exists: tick &apos;Replace its draft&apos; or enter another name.</source>
        <translation>名为 {name!r} 的注册表已存在：请勾选“替换其草稿”，或输入其他名称。</translation>
    </message>
    <message>
        <source>Import from MCP server</source>
        <translation>从 MCP 服务器导入</translation>
    </message>
    <message>
        <source>Pull the tools a live MCP server lists: start it with a command (stdio) or reach it by URL (streamable HTTP). Write secrets as {env:NAME}: they are read from the environment when connecting and never stored.</source>
        <translation>拉取运行中的 MCP 服务器列出的工具：用命令启动它（stdio），或通过 URL 访问（Streamable HTTP）。密钥请写成 {env:NAME}：连接时从环境变量读取，永不存储。</translation>
    </message>
    <message>
        <source>&amp;Command (stdio)</source>
        <translation>命令（stdio）(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;URL (streamable HTTP)</source>
        <translation>URL（Streamable HTTP）(&amp;U)</translation>
    </message>
    <message>
        <source>the server&apos;s name</source>
        <translation>服务器的名称</translation>
    </message>
    <message>
        <source>Replace its draft if the registry exists</source>
        <translation>若注册表已存在，则替换其草稿</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>&amp;Registry name:</source>
        <translation>注册表名称(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Timeout:</source>
        <translation>超时(&amp;T)：</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>&amp;URL:</source>
        <translation>URL(&amp;U)：</translation>
    </message>
    <message>
        <source>https://host/mcp</source>
        <translation>https://host/mcp</translation>
    </message>
    <message>
        <source>&amp;Headers:</source>
        <translation>请求头(&amp;H)：</translation>
    </message>
    <message>
        <source>Authorization: Bearer {env:MCP_TOKEN}</source>
        <translation>Authorization: Bearer {env:MCP_TOKEN}</translation>
    </message>
    <message>
        <source>Co&amp;mmand:</source>
        <translation>命令(&amp;M)：</translation>
    </message>
    <message>
        <source>uvx mcp-server-time</source>
        <translation>uvx mcp-server-time</translation>
    </message>
    <message>
        <source>&amp;Environment:</source>
        <translation>环境变量(&amp;E)：</translation>
    </message>
    <message>
        <source>API_KEY={env:MY_API_KEY}
PATH_TO_PASS_THROUGH</source>
        <translation>API_KEY={env:MY_API_KEY}
PATH_TO_PASS_THROUGH</translation>
    </message>
</context>
<context>
    <name>McpJobs</name>
    <message>
        <source>Nothing imported: {error}.</source>
        <translation>未导入任何内容：{error}。</translation>
    </message>
    <message>
        <source>The server&apos;s standard error ended with:</source>
        <translation>服务器标准错误输出的结尾：</translation>
    </message>
    <message>
        <source>Loading {side} of {registry}…</source>
        <translation>正在加载 {registry} 的 {side}…</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message>
        <source>Nothing checked: {error}.</source>
        <translation>未检查任何内容：{error}。</translation>
    </message>
    <message>
        <source>Nothing checked: {error}</source>
        <translation>未检查任何内容：{error}</translation>
    </message>
</context>
<context>
    <name>MockEditorDialog</name>
    <message>
        <source>Mock responses — {registry}</source>
        <translation>模拟响应 — {registry}</translation>
    </message>
    <message>
        <source>Tried from the top: the first response whose matchers all hold answers; the default answers when none does. Bold: the one the Try arguments get.</source>
        <translation>从上往下尝试：第一个所有匹配条件都成立的响应作答；都不成立时由默认响应作答。粗体：试用参数得到的那一个。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>A response with a matcher, tried before the default</source>
        <translation>带匹配条件的响应，在默认响应之前尝试</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>上移</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>下移</translation>
    </message>
    <message>
        <source>Add default</source>
        <translation>添加默认响应</translation>
    </message>
    <message>
        <source>{&quot;responses&quot;: [{&quot;when&quot;: [{&quot;path&quot;: &quot;category&quot;, &quot;equals&quot;: &quot;hotel&quot;}], &quot;body&quot;: …}], &quot;default&quot;: {&quot;body&quot;: …}}</source>
        <translation>{&quot;responses&quot;: [{&quot;when&quot;: [{&quot;path&quot;: &quot;category&quot;, &quot;equals&quot;: &quot;hotel&quot;}], &quot;body&quot;: …}], &quot;default&quot;: {&quot;body&quot;: …}}</translation>
    </message>
    <message>
        <source>Form</source>
        <translation>表单</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>Arguments after the pipeline (aliases mapped, injected filled)</source>
        <translation>经过流水线处理后的参数（已映射别名、已填入注入值）</translation>
    </message>
    <message>
        <source>&amp;Try with:</source>
        <translation>试用参数(&amp;T)：</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:{colour}&apos;&gt;✗ Fix it first: {value}. Your text is kept as typed.&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:{colour}&apos;&gt;✗ 请先修正：{value}。你输入的文本已原样保留。&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;{value}&lt;/b&gt; — {where}</source>
        <translation>&lt;b&gt;{value}&lt;/b&gt; — {where}</translation>
    </message>
    <message>
        <source>Mock responses — {registry}{value}</source>
        <translation>模拟响应 — {registry}{value}</translation>
    </message>
    <message>
        <source>No mocks: a call gets NO_MOCK_RESPONSE (501).</source>
        <translation>没有模拟响应：调用会得到 NO_MOCK_RESPONSE (501)。</translation>
    </message>
    <message>
        <source>The arguments do not parse ({value}).</source>
        <translation>参数无法解析（{value}）。</translation>
    </message>
    <message>
        <source>Arguments are a JSON object.</source>
        <translation>参数须为 JSON 对象。</translation>
    </message>
    <message>
        <source>Fix the errors to try the responses.</source>
        <translation>请先修正错误，再试用响应。</translation>
    </message>
    <message>
        <source>No response matches: the call gets NO_MOCK_RESPONSE (404).</source>
        <translation>没有匹配的响应：调用会得到 NO_MOCK_RESPONSE (404)。</translation>
    </message>
    <message>
        <source>→ {label}: {outcome}</source>
        <translation>→ {label}：{outcome}</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:{colour}&apos;&gt;✗ Not saved: {value}&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:{colour}&apos;&gt;✗ 未保存：{value}&lt;/span&gt;</translation>
    </message>
</context>
<context>
    <name>ModeBar</name>
    <message>
        <source>Modes</source>
        <translation>模式</translation>
    </message>
</context>
<context>
    <name>ModeToolbars</name>
    <message>
        <source>Open the Sessions mode first</source>
        <translation>请先打开会话模式</translation>
    </message>
    <message>
        <source>Import log…</source>
        <translation>导入日志…</translation>
    </message>
    <message>
        <source>Import sessions from a provider log, an agent trajectory or a session file</source>
        <translation>从服务商日志、智能体轨迹或会话文件导入会话</translation>
    </message>
    <message>
        <source>Record an agent&apos;s traffic through a local proxy; its sessions arrive here</source>
        <translation>通过本地代理录制智能体的流量；其会话会出现在这里</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Export the session as OpenAI, Anthropic or JSONL (secrets redacted)</source>
        <translation>将会话导出为 OpenAI、Anthropic 或 JSONL 格式（密钥已脱敏）</translation>
    </message>
    <message>
        <source>Select a session first</source>
        <translation>请先选择一个会话</translation>
    </message>
    <message>
        <source>Replay as model…</source>
        <translation>作为模型回放…</translation>
    </message>
    <message>
        <source>Play the recorded assistant turns against the current runtime and registry</source>
        <translation>以录制的助手轮次作为模型，在当前运行时和注册表上回放</translation>
    </message>
    <message>
        <source>Select a session first (or wait for the running replay)</source>
        <translation>请先选择一个会话（或等待正在进行的回放结束）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the replay</source>
        <translation>停止回放</translation>
    </message>
    <message>
        <source>No replay is running</source>
        <translation>没有正在进行的回放</translation>
    </message>
    <message>
        <source>Previous message</source>
        <translation>上一条消息</translation>
    </message>
    <message>
        <source>Step back one message (Alt+Left)</source>
        <translation>后退一条消息（Alt+左方向键）</translation>
    </message>
    <message>
        <source>At the first step, or no session</source>
        <translation>已在第一步，或没有会话</translation>
    </message>
    <message>
        <source>Next message</source>
        <translation>下一条消息</translation>
    </message>
    <message>
        <source>Step to the next message (Alt+Right)</source>
        <translation>前进到下一条消息（Alt+右方向键）</translation>
    </message>
    <message>
        <source>At the last step, or no session</source>
        <translation>已在最后一步，或没有会话</translation>
    </message>
    <message>
        <source>Previous problem</source>
        <translation>上一个问题</translation>
    </message>
    <message>
        <source>The previous step with a problem</source>
        <translation>上一个有问题的步骤</translation>
    </message>
    <message>
        <source>No problem before this step</source>
        <translation>此步骤之前没有问题</translation>
    </message>
    <message>
        <source>Next problem</source>
        <translation>下一个问题</translation>
    </message>
    <message>
        <source>The next step with a problem</source>
        <translation>下一个有问题的步骤</translation>
    </message>
    <message>
        <source>No problem after this step</source>
        <translation>此步骤之后没有问题</translation>
    </message>
    <message>
        <source>Doctor</source>
        <translation>诊治</translation>
    </message>
    <message>
        <source>Repair, convert or trim the session (saved as a new session)</source>
        <translation>修复、转换或裁剪会话（另存为新会话）</translation>
    </message>
    <message>
        <source>Repair…</source>
        <translation>修复…</translation>
    </message>
    <message>
        <source>The smallest change that makes this history valid for a provider</source>
        <translation>使该历史对服务商有效的最小改动</translation>
    </message>
    <message>
        <source>Convert…</source>
        <translation>转换…</translation>
    </message>
    <message>
        <source>This conversation in another provider&apos;s wire shape</source>
        <translation>将此对话转换为另一服务商的报文格式</translation>
    </message>
    <message>
        <source>Trim…</source>
        <translation>裁剪…</translation>
    </message>
    <message>
        <source>Drop the oldest messages to fit a token budget, at safe points only</source>
        <translation>丢弃最早的消息以符合令牌预算，仅在安全位置裁剪</translation>
    </message>
    <message>
        <source>Re-validate</source>
        <translation>重新验证</translation>
    </message>
    <message>
        <source>Check every recorded call against a registry version (the Re-validation tab)</source>
        <translation>对照注册表版本检查每个录制的调用（重新验证标签页）</translation>
    </message>
    <message>
        <source>Eval case…</source>
        <translation>评测用例…</translation>
    </message>
    <message>
        <source>Add this step&apos;s user turn and the calls it led to as an eval case</source>
        <translation>将此步骤的用户轮次及其引发的调用添加为评测用例</translation>
    </message>
    <message>
        <source>Nothing to compare yet: publish a version of the registry first</source>
        <translation>尚无可比较的内容：请先发布注册表的一个版本</translation>
    </message>
    <message>
        <source>Swap sides</source>
        <translation>交换两侧</translation>
    </message>
    <message>
        <source>Compare B → A instead of A → B</source>
        <translation>改为比较 B → A，而不是 A → B</translation>
    </message>
    <message>
        <source>No registry open</source>
        <translation>没有打开的注册表</translation>
    </message>
    <message>
        <source>Previous change</source>
        <translation>上一处变更</translation>
    </message>
    <message>
        <source>The previous changed tool</source>
        <translation>上一个有变更的工具</translation>
    </message>
    <message>
        <source>No changed tool before this one</source>
        <translation>此工具之前没有有变更的工具</translation>
    </message>
    <message>
        <source>Next change</source>
        <translation>下一处变更</translation>
    </message>
    <message>
        <source>The next changed tool</source>
        <translation>下一个有变更的工具</translation>
    </message>
    <message>
        <source>No changed tool after this one</source>
        <translation>此工具之后没有有变更的工具</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>Save the diff as Markdown (for a pull request) or JSON</source>
        <translation>将差异保存为 Markdown（用于拉取请求）或 JSON</translation>
    </message>
    <message>
        <source>No diff computed yet</source>
        <translation>尚未计算差异</translation>
    </message>
    <message>
        <source>Markdown…</source>
        <translation>Markdown…</translation>
    </message>
    <message>
        <source>Save the report for a pull request</source>
        <translation>保存报告以用于拉取请求</translation>
    </message>
    <message>
        <source>JSON…</source>
        <translation>JSON…</translation>
    </message>
    <message>
        <source>Save the diff as JSON for scripts</source>
        <translation>将差异保存为 JSON，供脚本使用</translation>
    </message>
    <message>
        <source>{registry} has no published version: channels serve published versions. Publish the draft first.</source>
        <translation>{registry} 还没有已发布的版本：通道只提供已发布的版本。请先发布草稿。</translation>
    </message>
    <message>
        <source>Open the Release mode first</source>
        <translation>请先打开发布模式</translation>
    </message>
    <message>
        <source>Publish the draft…</source>
        <translation>发布草稿…</translation>
    </message>
    <message>
        <source>Publish the draft as the first version the channels can serve</source>
        <translation>将草稿发布为通道可以提供的第一个版本</translation>
    </message>
    <message>
        <source>Set canary…</source>
        <translation>设置金丝雀…</translation>
    </message>
    <message>
        <source>Serve a version to a share of subjects; says who moves and asks</source>
        <translation>向一部分对象提供某个版本；先说明哪些对象会切换并征求确认</translation>
    </message>
    <message>
        <source>Promote</source>
        <translation>提升</translation>
    </message>
    <message>
        <source>Make the canary&apos;s version stable (canary goes to 0 %)</source>
        <translation>将金丝雀的版本设为稳定版（金丝雀降为 0 %）</translation>
    </message>
    <message>
        <source>No canary version: set a canary first</source>
        <translation>没有金丝雀版本：请先设置金丝雀</translation>
    </message>
    <message>
        <source>Roll back canary</source>
        <translation>回滚金丝雀</translation>
    </message>
    <message>
        <source>Set the canary to 0 %: a pause, its version stays set</source>
        <translation>将金丝雀设为 0 %：相当于暂停，其版本保持不变</translation>
    </message>
    <message>
        <source>The canary serves no one (0 %)</source>
        <translation>金丝雀没有服务任何对象（0 %）</translation>
    </message>
    <message>
        <source>Roll back stable</source>
        <translation>回滚稳定版</translation>
    </message>
    <message>
        <source>Return stable to its previous version</source>
        <translation>将稳定版恢复到上一个版本</translation>
    </message>
    <message>
        <source>Stable follows the newest version: nothing to roll back</source>
        <translation>稳定版跟随最新版本：没有可回滚的内容</translation>
    </message>
    <message>
        <source>Simulate</source>
        <translation>模拟</translation>
    </message>
    <message>
        <source>Which version each subject gets with the channels as set</source>
        <translation>按当前通道设置，每个对象会得到哪个版本</translation>
    </message>
    <message>
        <source>Guard</source>
        <translation>守护</translation>
    </message>
    <message>
        <source>Error rates of canary and stable from recorded outcomes</source>
        <translation>根据记录的结果计算金丝雀和稳定版的错误率</translation>
    </message>
    <message>
        <source>Serve</source>
        <translation>提供服务</translation>
    </message>
    <message>
        <source>Serve published versions over HTTP on 127.0.0.1</source>
        <translation>在 127.0.0.1 上通过 HTTP 提供已发布的版本</translation>
    </message>
</context>
<context>
    <name>NewRegistryDialog</name>
    <message>
        <source>Enter a name.</source>
        <translation>请输入名称。</translation>
    </message>
    <message>
        <source>The name has {count} characters; at most {maximum} are allowed.</source>
        <translation>名称有 {count} 个字符；最多允许 {maximum} 个。</translation>
    </message>
    <message>
        <source>space</source>
        <translation>空格</translation>
    </message>
    <message>
        <source>Not allowed in a name: {shown}. Use lowercase a-z, digits 0-9, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;.</source>
        <translation>名称中不允许使用：{shown}。请使用小写字母 a-z、数字 0-9、“.”、“_”或“-”。</translation>
    </message>
    <message>
        <source>The name must start with a lowercase letter or a digit.</source>
        <translation>名称必须以小写字母或数字开头。</translation>
    </message>
    <message>
        <source>A registry named {name!r} already exists.</source>
        <translation>名为 {name!r} 的注册表已存在。</translation>
    </message>
    <message>
        <source>New registry</source>
        <translation>新建注册表</translation>
    </message>
    <message>
        <source>Create an empty registry. You can import or add tools afterwards.</source>
        <translation>创建一个空注册表。之后可以导入或添加工具。</translation>
    </message>
    <message>
        <source>e.g. travel-reimbursement</source>
        <translation>例如 travel-reimbursement</translation>
    </message>
    <message>
        <source>shown in the registry list, e.g. Travel reimbursement</source>
        <translation>显示在注册表列表中，例如“差旅报销”</translation>
    </message>
    <message>
        <source>What the tools of this registry are for</source>
        <translation>此注册表中的工具用于做什么</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>标题(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Description:</source>
        <translation>描述(&amp;D)：</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>创建</translation>
    </message>
</context>
<context>
    <name>NotesDialog</name>
    <message>
        <source>Lost</source>
        <translation>丢失</translation>
    </message>
    <message>
        <source>Guessed</source>
        <translation>推测</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>Nothing was guessed or lost.</source>
        <translation>没有推测或丢失任何内容。</translation>
    </message>
    <message>
        <source>Check these notes: {parts}.</source>
        <translation>请检查这些说明：{parts}。</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>What</source>
        <translation>内容</translation>
    </message>
</context>
<context>
    <name>OpenApiPickerDialog</name>
    <message>
        <source>(no tag)</source>
        <translation>（无标签）</translation>
    </message>
    <message>
        <source>Import operations from {source}</source>
        <translation>从 {source} 导入操作</translation>
    </message>
    <message>
        <source>search method, path, operationId, summary</source>
        <translation>搜索方法、路径、operationId、摘要</translation>
    </message>
    <message>
        <source>Select &amp;all</source>
        <translation>全选(&amp;A)</translation>
    </message>
    <message>
        <source>Select &amp;none</source>
        <translation>全不选(&amp;N)</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Select an operation to preview its contract</source>
        <translation>选择一个操作以预览其契约</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>{count} of {total} operations selected</source>
        <translation>已选择 {count}/{total} 个操作</translation>
    </message>
    <message>
        <source>Cannot import this operation: {error}</source>
        <translation>无法导入此操作：{error}</translation>
    </message>
    <message>
        <source>This operation gives no tool.</source>
        <translation>此操作不会生成工具。</translation>
    </message>
    <message>
        <source>HTTP target:</source>
        <translation>HTTP 目标：</translation>
    </message>
    <message>
        <source>Notes:</source>
        <translation>说明：</translation>
    </message>
</context>
<context>
    <name>OverviewTab</name>
    <message>
        <source>When to use it, when not, and which sibling tool to use instead</source>
        <translation>何时使用、何时不用，以及应改用哪个同类工具</translation>
    </message>
    <message>
        <source>State required before calling</source>
        <translation>调用前必须满足的状态</translation>
    </message>
    <message>
        <source>What a successful call returns</source>
        <translation>成功调用时返回的内容</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>用法</translation>
    </message>
    <message>
        <source>Preconditions</source>
        <translation>前置条件</translation>
    </message>
    <message>
        <source>Returns</source>
        <translation>返回值</translation>
    </message>
</context>
<context>
    <name>OverviewTabWidget</name>
    <message>
        <source>Identity</source>
        <translation>标识</translation>
    </message>
    <message>
        <source>verb_noun, e.g. query_invoices</source>
        <translation>动词_名词，例如 query_invoices</translation>
    </message>
    <message>
        <source>Display title (not shown to the model)</source>
        <translation>显示标题（不给模型看）</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>名称(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Title</source>
        <translation>标题(&amp;T)</translation>
    </message>
    <message>
        <source>Description blocks (rendered into the text the model sees)</source>
        <translation>描述块（渲染为模型看到的文本）</translation>
    </message>
    <message>
        <source>This tool&apos;s text is in the free-text description below, and the model reads it as is. Filling in the blocks (Summary first) replaces it with a structured description.</source>
        <translation>此工具的文字在下方的自由文本描述中，模型会原样读取。填写描述块（先填摘要）后，将改用结构化描述。</translation>
    </message>
    <message>
        <source>One line: what the tool does</source>
        <translation>一行：这个工具做什么</translation>
    </message>
    <message>
        <source>&amp;Summary</source>
        <translation>摘要(&amp;S)</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Examples</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>Free-text description</source>
        <translation>自由文本描述</translation>
    </message>
    <message>
        <source>Used only when no description block above is filled in (typically text kept from an import).</source>
        <translation>仅在上方没有填写任何描述块时使用（通常是导入时保留的文本）。</translation>
    </message>
    <message>
        <source>This text is used: no description block is filled in.</source>
        <translation>正在使用此文本：没有填写任何描述块。</translation>
    </message>
    <message>
        <source>This text is not used now: description blocks are filled in.</source>
        <translation>当前未使用此文本：已填写描述块。</translation>
    </message>
    <message>
        <source>A name must be 1–64 letters, digits, &apos;_&apos; or &apos;-&apos; (e.g. query_invoices).</source>
        <translation>名称必须由 1–64 个字母、数字、“_”或“-”组成（例如 query_invoices）。</translation>
    </message>
</context>
<context>
    <name>ParameterTreeModel</name>
    <message>
        <source>The schema of each item of the array</source>
        <translation>数组中每一项的 Schema</translation>
    </message>
</context>
<context>
    <name>ParametersTabWidget</name>
    <message>
        <source>Add parameter</source>
        <translation>添加参数</translation>
    </message>
    <message>
        <source>Add child</source>
        <translation>添加子项</translation>
    </message>
    <message>
        <source>Add a property to the selected object (or array of objects)</source>
        <translation>向所选对象（或对象数组）添加属性</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Double-click a cell to edit. Lists are comma-separated; enum aliases as 出租车=taxi, 的士=taxi.</source>
        <translation>双击单元格进行编辑。列表用逗号分隔；枚举别名写作 出租车=taxi, 的士=taxi。</translation>
    </message>
</context>
<context>
    <name>PendingCalls</name>
    <message>
        <source>(no id)</source>
        <translation>（无 id）</translation>
    </message>
    <message>
        <source>message {number}</source>
        <translation>第 {number} 条消息</translation>
    </message>
</context>
<context>
    <name>PlaygroundSidebar</name>
    <message>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>Test connection: list the server&apos;s models with this profile</source>
        <translation>测试连接：用此配置列出服务器上的模型</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Run the draft as the editor shows it (unsaved edits included) or a version</source>
        <translation>运行编辑器中显示的草稿（含未保存的修改）或某个版本</translation>
    </message>
    <message>
        <source>&amp;Pin</source>
        <translation>固定(&amp;P)</translation>
    </message>
    <message>
        <source>Keep this registry; unpinned, the Playground follows the editor&apos;s registry</source>
        <translation>保持使用此注册表；不固定时，调试台跟随编辑器的注册表</translation>
    </message>
    <message>
        <source>Registry</source>
        <translation>注册表</translation>
    </message>
    <message>
        <source>&amp;Registry</source>
        <translation>注册表(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Version</source>
        <translation>版本(&amp;V)</translation>
    </message>
    <message>
        <source>System prompt (optional)</source>
        <translation>系统提示词（可选）</translation>
    </message>
    <message>
        <source>employee_id=E-1001</source>
        <translation>employee_id=E-1001</translation>
    </message>
    <message>
        <source>KEY=VALUE per line: the values behind injected fields</source>
        <translation>每行一个 KEY=VALUE：注入字段背后的值</translation>
    </message>
    <message>
        <source>System prompt and session context</source>
        <translation>系统提示词和会话上下文</translation>
    </message>
    <message>
        <source>R&amp;ole</source>
        <translation>角色(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Scenario</source>
        <translation>场景(&amp;S)</translation>
    </message>
    <message>
        <source>Va&amp;lues</source>
        <translation>值(&amp;L)</translation>
    </message>
    <message>
        <source>Pick mock or http per tool; double-click a row to edit its HTTP target or mocks</source>
        <translation>为每个工具选择模拟或 HTTP 执行器；双击一行可编辑其 HTTP 目标或模拟响应</translation>
    </message>
    <message>
        <source>HTTP target…</source>
        <translation>HTTP 目标…</translation>
    </message>
    <message>
        <source>URL, method, header and body templates of the selected tool, and the registry&apos;s allowed base URLs</source>
        <translation>所选工具的 URL、方法、请求头和请求体模板，以及注册表允许的基础 URL</translation>
    </message>
    <message>
        <source>Mock responses…</source>
        <translation>模拟响应…</translation>
    </message>
    <message>
        <source>Canned responses per tool: matchers, failures, latency</source>
        <translation>每个工具的预设响应：匹配条件、失败、延迟</translation>
    </message>
    <message>
        <source>HTTP calls may go only under these; edit them in HTTP target…</source>
        <translation>HTTP 调用只能发往这些地址之下；可在“HTTP 目标…”中编辑</translation>
    </message>
    <message>
        <source>Executors</source>
        <translation>执行器</translation>
    </message>
    <message>
        <source>Nothing to run yet: pick a registry</source>
        <translation>还没有可运行的内容：请选择一个注册表</translation>
    </message>
    <message>
        <source>version {number}</source>
        <translation>版本 {number}</translation>
    </message>
    <message>
        <source>profile {name}</source>
        <translation>配置 {name}</translation>
    </message>
    <message>
        <source>no model profile yet</source>
        <translation>尚无模型配置</translation>
    </message>
    <message>
        <source>mock</source>
        <translation>模拟</translation>
    </message>
    <message>
        <source>HTTP</source>
        <translation>HTTP</translation>
    </message>
    <message>
        <source>executors: {counts}</source>
        <translation>执行器：{counts}</translation>
    </message>
    <message>
        <source> (pinned)</source>
        <translation>（已固定）</translation>
    </message>
    <message>
        <source>Runs {what}</source>
        <translation>运行 {what}</translation>
    </message>
    <message>
        <source>draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <source>draft · 1 unsaved edit</source>
        <translation>草稿 · 1 处未保存的修改</translation>
    </message>
    <message>
        <source>draft · {count} unsaved edits</source>
        <translation>草稿 · {count} 处未保存的修改</translation>
    </message>
    <message>
        <source>Not saved: {exc}</source>
        <translation>未保存：{exc}</translation>
    </message>
    <message>
        <source>Saved, but the keyring refused the key: {exc}</source>
        <translation>已保存，但密钥环拒绝保存该密钥：{exc}</translation>
    </message>
    <message>
        <source>Add a model profile first</source>
        <translation>请先添加模型配置</translation>
    </message>
    <message>
        <source>Testing {base_url}…</source>
        <translation>正在测试 {base_url}…</translation>
    </message>
    <message>
        <source>Versions not loaded: {error}</source>
        <translation>版本未加载：{error}</translation>
    </message>
    <message>
        <source>Executors not loaded: {exc}</source>
        <translation>执行器未加载：{exc}</translation>
    </message>
    <message>
        <source>none yet (set in HTTP target…)</source>
        <translation>尚无（在“HTTP 目标…”中设置）</translation>
    </message>
    <message>
        <source>HTTP allowed: {shown}</source>
        <translation>允许的 HTTP：{shown}</translation>
    </message>
    <message>
        <source>Registry not loaded: {error}</source>
        <translation>注册表未加载：{error}</translation>
    </message>
    <message>
        <source>Add a model profile first (Model → Add…)</source>
        <translation>请先添加模型配置（模型 → 添加…）</translation>
    </message>
    <message>
        <source>{variable} is not set: export it before starting the studio, or store a key with Edit… (profile {profile})</source>
        <translation>{variable} 未设置：请在启动 Studio 前导出该环境变量，或通过“编辑…”保存密钥（配置 {profile}）</translation>
    </message>
    <message>
        <source>Pick a registry</source>
        <translation>选择一个注册表</translation>
    </message>
    <message>
        <source>The stored mocks do not load: {error} (Mock responses…)</source>
        <translation>存储的模拟响应无法加载：{error}（模拟响应…）</translation>
    </message>
    <message>
        <source>double-click its executor row</source>
        <translation>双击其执行器行</translation>
    </message>
    <message>
        <source>Executor not saved: {exc}</source>
        <translation>执行器未保存：{exc}</translation>
    </message>
    <message>
        <source>Select a tool in the executor table first</source>
        <translation>请先在执行器表中选择一个工具</translation>
    </message>
    <message>
        <source>Pick a registry first</source>
        <translation>请先选择注册表</translation>
    </message>
</context>
<context>
    <name>PlaygroundView</name>
    <message>
        <source>Run events appear here as the model answers and the tools run.</source>
        <translation>模型作答和工具运行时，运行事件会显示在这里。</translation>
    </message>
    <message>
        <source>Nothing has run yet. Type a prompt below and press Run (Ctrl+Return): the model&apos;s answer, every tool call it makes and each result appear here. The header above says what runs.</source>
        <translation>尚未运行任何内容。在下方输入提示词并点击“运行”（Ctrl+Return）：模型的回答、它发起的每次工具调用及其结果都会显示在这里。上方的标题说明运行的是什么。</translation>
    </message>
    <message>
        <source>No session yet</source>
        <translation>尚无会话</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Run again from here</source>
        <translation>从这里重新运行</translation>
    </message>
    <message>
        <source>Start a new session with the messages up to the selected one</source>
        <translation>以截至所选消息的内容开始一个新会话</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>OpenAI messages JSON…</source>
        <translation>OpenAI messages JSON…</translation>
    </message>
    <message>
        <source>Anthropic messages JSON…</source>
        <translation>Anthropic messages JSON…</translation>
    </message>
    <message>
        <source>Ask the model… (Ctrl+Return runs, Esc stops)</source>
        <translation>向模型提问…（Ctrl+Return 运行，Esc 停止）</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Type a prompt first</source>
        <translation>请先输入提示词</translation>
    </message>
    <message>
        <source>Select a message to run again from</source>
        <translation>请选择要从哪条消息重新运行</translation>
    </message>
    <message>
        <source>A run is in progress; Stop it first</source>
        <translation>有运行正在进行；请先停止</translation>
    </message>
    <message>
        <source>Run something first: there is no session to export</source>
        <translation>请先运行：没有可导出的会话</translation>
    </message>
    <message>
        <source>Exported to {name}</source>
        <translation>已导出到 {name}</translation>
    </message>
    <message>
        <source>Waiting for approval of {tool}</source>
        <translation>等待批准 {tool}</translation>
    </message>
    <message>
        <source>Session {value}{origin}</source>
        <translation>会话 {value}{origin}</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>Streaming…</source>
        <translation>正在流式输出…</translation>
    </message>
    <message>
        <source>Waiting for approval</source>
        <translation>等待批准</translation>
    </message>
    <message>
        <source>Running tools…</source>
        <translation>正在运行工具…</translation>
    </message>
    <message>
        <source>Run {status}</source>
        <translation>运行{status}</translation>
    </message>
    <message>
        <source>{agent} asks: {question} — type your answer and Run</source>
        <translation>{agent} 询问：{question} — 请输入你的回答，然后点击“运行”</translation>
    </message>
    <message>
        <source>{agent}: {state}</source>
        <translation>{agent}：{state}</translation>
    </message>
</context>
<context>
    <name>PreviewWidget</name>
    <message>
        <source>OpenAI chat (tools)</source>
        <translation>OpenAI Chat（工具）</translation>
    </message>
    <message>
        <source>OpenAI Responses</source>
        <translation>OpenAI Responses</translation>
    </message>
    <message>
        <source>Anthropic messages</source>
        <translation>Anthropic Messages</translation>
    </message>
    <message>
        <source>MCP tools/list entry</source>
        <translation>MCP tools/list 条目</translation>
    </message>
    <message>
        <source>Gemini function declaration</source>
        <translation>Gemini 函数声明</translation>
    </message>
    <message>
        <source>Which provider&apos;s request to preview</source>
        <translation>预览哪个提供商的请求</translation>
    </message>
    <message>
        <source>Selected tool</source>
        <translation>所选工具</translation>
    </message>
    <message>
        <source>Preview the selected tool, or every tool a role in a scenario is sent</source>
        <translation>预览所选工具，或在某个场景中发送给某个角色的全部工具</translation>
    </message>
    <message>
        <source>≈ 0 tokens</source>
        <translation>≈ 0 个 token</translation>
    </message>
    <message>
        <source>Estimated tokens of the provider JSON (an offline heuristic, not a tokenizer)</source>
        <translation>提供方 JSON 的估算 token 数（离线启发式估算，并非分词器计数）</translation>
    </message>
    <message>
        <source>Select a tool to see what the model receives.</source>
        <translation>选择一个工具，查看模型收到的内容。</translation>
    </message>
    <message>
        <source>The description the model sees.</source>
        <translation>模型看到的描述。</translation>
    </message>
    <message>
        <source>What this provider&apos;s format cannot express</source>
        <translation>此提供商的格式无法表达的内容</translation>
    </message>
    <message>
        <source>Request JSON</source>
        <translation>请求 JSON</translation>
    </message>
    <message>
        <source>Rendered description</source>
        <translation>渲染后的描述</translation>
    </message>
    <message>
        <source>Loss notes</source>
        <translation>丢失说明</translation>
    </message>
    <message>
        <source>Cannot export this tool yet:</source>
        <translation>暂时无法导出此工具：</translation>
    </message>
    <message>
        <source>≈ — tokens</source>
        <translation>≈ — 个 token</translation>
    </message>
    <message>
        <source>Sent to {role} in {scenario}</source>
        <translation>在 {scenario} 中发送给 {role}</translation>
    </message>
    <message>
        <source>(any role)</source>
        <translation>（任意角色）</translation>
    </message>
    <message>
        <source>(any scenario)</source>
        <translation>（任意场景）</translation>
    </message>
    <message>
        <source>{sent} of {total} tools are sent to {role} in {scenario}</source>
        <translation>在 {scenario} 中，{total} 个工具里有 {sent} 个发送给 {role}</translation>
    </message>
    <message>
        <source>No loss notes: this format carries the whole contract.</source>
        <translation>没有丢失说明：此格式承载了完整的契约。</translation>
    </message>
    <message>
        <source>Cannot export these tools yet:</source>
        <translation>暂时无法导出这些工具：</translation>
    </message>
    <message>
        <source>≈ {count} tokens (estimate)</source>
        <translation>≈ {count} 个 token（估算）</translation>
    </message>
    <message>
        <source>{count} tokens ({method})</source>
        <translation>{count} 个 token（{method}）</translation>
    </message>
    <message>
        <source>{method} tokens of this JSON (compact): exact for this text, but OpenAI renders tool definitions in its own internal format, so the billed count differs somewhat. The lint&apos;s per-tool figure counts the name, description and parameters plus a fixed wrapper allowance instead of this JSON.</source>
        <translation>此 JSON（紧凑格式）的 {method} token 数：对这段文本是精确的，但 OpenAI 会把工具定义渲染成其内部格式，因此计费数量会略有不同。检查中每个工具的数字统计的是名称、描述和参数，外加固定的包装开销，而不是这段 JSON。</translation>
    </message>
    <message>
        <source>{tip}; there is no offline tokenizer for this provider&apos;s models</source>
        <translation>{tip}；此提供方的模型没有离线分词器</translation>
    </message>
    <message>
        <source>{tip}; loading the {encoding} tokenizer…</source>
        <translation>{tip}；正在加载 {encoding} 分词器…</translation>
    </message>
    <message>
        <source>{tip}; install the exact-tokens extra (bpe-openai) for {encoding}</source>
        <translation>{tip}；安装 exact-tokens 附加组件（bpe-openai）可得到 {encoding} 的精确计数</translation>
    </message>
</context>
<context>
    <name>ProblemsPanel</name>
    <message>
        <source>{n} error</source>
        <translation>{n} 个错误</translation>
    </message>
    <message>
        <source>{n} errors</source>
        <translation>{n} 个错误</translation>
    </message>
    <message>
        <source>{n} warning</source>
        <translation>{n} 个警告</translation>
    </message>
    <message>
        <source>{n} warnings</source>
        <translation>{n} 个警告</translation>
    </message>
    <message>
        <source>{n} info</source>
        <translation>{n} 条信息</translation>
    </message>
    <message>
        <source>no problems</source>
        <translation>没有问题</translation>
    </message>
    <message>
        <source>Show {severity}</source>
        <translation>显示{severity}</translation>
    </message>
    <message>
        <source>Filter problems</source>
        <translation>筛选问题</translation>
    </message>
    <message>
        <source>&amp;Profile</source>
        <translation>配置(&amp;P)</translation>
    </message>
    <message>
        <source>The provider the tools are linted for</source>
        <translation>按哪个提供商检查这些工具</translation>
    </message>
    <message>
        <source>{severity} ({n})</source>
        <translation>{severity}（{n}）</translation>
    </message>
    <message>
        <source>&amp;Go to field</source>
        <translation>转到字段(&amp;G)</translation>
    </message>
    <message>
        <source>Apply quick fix: {label}</source>
        <translation>应用快速修复：{label}</translation>
    </message>
    <message>
        <source>No fix</source>
        <translation>无可用修复</translation>
    </message>
    <message>
        <source>&amp;Suppress with reason…</source>
        <translation>填写原因并抑制(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Disable {rule_id} for this registry</source>
        <translation>在此注册表中禁用 {rule_id}(&amp;D)</translation>
    </message>
    <message>
        <source>Show &amp;rationale</source>
        <translation>显示理由(&amp;R)</translation>
    </message>
</context>
<context>
    <name>ProfileDialog</name>
    <message>
        <source>Edit model profile</source>
        <translation>编辑模型配置</translation>
    </message>
    <message>
        <source>Add model profile</source>
        <translation>添加模型配置</translation>
    </message>
    <message>
        <source>e.g. OPENAI_API_KEY (empty: system keyring)</source>
        <translation>例如 OPENAI_API_KEY（留空：使用系统密钥环）</translation>
    </message>
    <message>
        <source>optional: saved in the system keyring</source>
        <translation>可选：保存在系统密钥环中</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation>名称(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Kind</source>
        <translation>类型(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Base URL</source>
        <translation>基础 URL(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>API key &amp;variable</source>
        <translation>API 密钥变量(&amp;V)</translation>
    </message>
    <message>
        <source>API &amp;key</source>
        <translation>API 密钥(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;Temperature</source>
        <translation>温度(&amp;T)</translation>
    </message>
    <message>
        <source>Max &amp;tokens</source>
        <translation>最大 token 数(&amp;T)</translation>
    </message>
</context>
<context>
    <name>Prompts</name>
    <message>
        <source>{names} has unsaved changes.</source>
        <translation>{names} 有未保存的修改。</translation>
    </message>
    <message>
        <source>Save them before closing?</source>
        <translation>关闭前保存吗？</translation>
    </message>
    <message>
        <source>Changed elsewhere</source>
        <translation>已在别处修改</translation>
    </message>
    <message>
        <source>Not saved: {message}.</source>
        <translation>未保存：{message}。</translation>
    </message>
    <message>
        <source>Nothing was overwritten. Reload discards your unsaved changes to {registry} and shows what is stored now; Cancel keeps your changes open so you can copy them before reloading.</source>
        <translation>未覆盖任何内容。“重新加载”会丢弃你对 {registry} 的未保存修改，并显示当前存储的内容；“取消”会保留你的修改，便于在重新加载前复制。</translation>
    </message>
    <message>
        <source>Reload (discard mine)</source>
        <translation>重新加载（丢弃我的修改）</translation>
    </message>
    <message>
        <source>Cancel (keep editing)</source>
        <translation>取消（继续编辑）</translation>
    </message>
    <message>
        <source>Save before publishing</source>
        <translation>发布前保存</translation>
    </message>
    <message>
        <source>{registry} has unsaved changes. A version is published from the saved draft. Save now and continue?</source>
        <translation>{registry} 有未保存的修改。版本是从已保存的草稿发布的。现在保存并继续吗？</translation>
    </message>
</context>
<context>
    <name>ProxyDialog</name>
    <message>
        <source>Record proxy</source>
        <translation>录制代理</translation>
    </message>
    <message>
        <source>any free port</source>
        <translation>任意空闲端口</translation>
    </message>
    <message>
        <source>Point the agent at the proxy&apos;s address instead of its provider. It listens on 127.0.0.1; the API key the agent sends is passed on, never stored.</source>
        <translation>让智能体连接代理的地址而不是模型提供方。代理只监听 127.0.0.1；智能体发送的 API 密钥只会被转发，绝不保存。</translation>
    </message>
    <message>
        <source>Wire format</source>
        <translation>线路格式</translation>
    </message>
    <message>
        <source>Upstream URL</source>
        <translation>上游 URL</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>Broken history</source>
        <translation>历史有问题时</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>启动</translation>
    </message>
    <message>
        <source>The upstream must be an http(s) URL, not &apos;{url}&apos;</source>
        <translation>上游必须是 http(s) URL，而不是“{url}”</translation>
    </message>
    <message>
        <source>OpenAI Chat Completions</source>
        <translation>OpenAI Chat Completions</translation>
    </message>
    <message>
        <source>Anthropic Messages</source>
        <translation>Anthropic Messages</translation>
    </message>
    <message>
        <source>Forward it anyway (record the provider&apos;s error)</source>
        <translation>照常转发（记录提供方的错误）</translation>
    </message>
    <message>
        <source>Repair it, then forward (record the changes)</source>
        <translation>先修复再转发（记录改动）</translation>
    </message>
    <message>
        <source>Refuse it with the provider&apos;s error</source>
        <translation>以提供方的错误拒绝</translation>
    </message>
</context>
<context>
    <name>ProxyLogView</name>
    <message>
        <source>Seq</source>
        <translation>序号</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>{action} · {messages} messages ({new} new) · {problems} problem(s)</source>
        <translation>{action} · {messages} 条消息（{new} 条新消息）· {problems} 个问题</translation>
    </message>
    <message>
        <source>status {status} · {calls} call(s) · stop: {stop}</source>
        <translation>状态 {status} · {calls} 个调用 · 停止原因：{stop}</translation>
    </message>
    <message>
        <source>{count} change(s) before forwarding</source>
        <translation>转发前做了 {count} 处修改</translation>
    </message>
    <message>
        <source>refused with status {status}</source>
        <translation>已拒绝，状态 {status}</translation>
    </message>
</context>
<context>
    <name>PublishBaseline</name>
    <message>
        <source>{registry} has never been published: every tool is new.</source>
        <translation>{registry} 从未发布过：所有工具都是新的。</translation>
    </message>
    <message>
        <source>Compared with the version the stable channel serves (v{number}).</source>
        <translation>与 stable 渠道提供的版本（v{number}）比较。</translation>
    </message>
    <message>
        <source>No stable channel version is set: compared with the latest version (v{number}).</source>
        <translation>stable 渠道未设置版本：与最新版本（v{number}）比较。</translation>
    </message>
</context>
<context>
    <name>PublishDialog</name>
    <message>
        <source>Publish {registry}</source>
        <translation>发布 {registry}</translation>
    </message>
    <message>
        <source>Publish the saved draft of &lt;b&gt;{registry}&lt;/b&gt; ({tool_count} tools) as a new immutable version. Agents and reviewers will see exactly this snapshot.</source>
        <translation>将 &lt;b&gt;{registry}&lt;/b&gt; 已保存的草稿（{tool_count} 个工具）发布为新的不可变版本。智能体和审阅者看到的将正是这个快照。</translation>
    </message>
    <message>
        <source>What changed and why (shown in the version list)</source>
        <translation>改了什么、为什么改（显示在版本列表中）</translation>
    </message>
    <message>
        <source>optional, e.g. 1.2.0</source>
        <translation>可选，例如 1.2.0</translation>
    </message>
    <message>
        <source>Release notes:</source>
        <translation>发布说明：</translation>
    </message>
    <message>
        <source>Semantic version:</source>
        <translation>语义版本：</translation>
    </message>
    <message>
        <source>Publish</source>
        <translation>发布</translation>
    </message>
    <message>
        <source>no changes</source>
        <translation>无变更</translation>
    </message>
    <message>
        <source>{counts}&lt;br&gt;Suggested bump: &lt;b&gt;{level}&lt;/b&gt; — {reasons}</source>
        <translation>{counts}&lt;br&gt;建议升级：&lt;b&gt;{level}&lt;/b&gt; — {reasons}</translation>
    </message>
    <message>
        <source>&lt;b&gt;Acknowledge each breaking change ({count})&lt;/b&gt; — callers built for {baseline} may fail after this release:</source>
        <translation>&lt;b&gt;逐条确认破坏性变更（{count}）&lt;/b&gt; — 基于 {baseline} 构建的调用方在此次发布后可能失败：</translation>
    </message>
    <message>
        <source>Acknowledge all</source>
        <translation>全部确认</translation>
    </message>
    <message>
        <source>Suggested from {previous} and a {level} bump</source>
        <translation>根据 {previous} 和{level}升级建议</translation>
    </message>
    <message>
        <source>no earlier semver</source>
        <translation>无先前的语义版本</translation>
    </message>
    <message>
        <source>Acknowledge the {missing} remaining breaking change(s) first</source>
        <translation>请先确认剩余的 {missing} 个破坏性变更</translation>
    </message>
    <message>
        <source>Not published: {exc}</source>
        <translation>未发布：{exc}</translation>
    </message>
    <message>
        <source>(registry)</source>
        <translation>（注册表）</translation>
    </message>
    <message>
        <source>Nothing changed since the baseline.</source>
        <translation>自基线以来没有任何变化。</translation>
    </message>
</context>
<context>
    <name>PublishEvalSection</name>
    <message>
        <source>&lt;b&gt;Behaviour&lt;/b&gt; — the draft against its parent on an eval set</source>
        <translation>&lt;b&gt;行为&lt;/b&gt; — 在评测集上比较草稿与其父版本</translation>
    </message>
    <message>
        <source>Eval set</source>
        <translation>评测集</translation>
    </message>
    <message>
        <source>Model profile</source>
        <translation>模型配置</translation>
    </message>
    <message>
        <source>Run evals</source>
        <translation>运行评测</translation>
    </message>
    <message>
        <source>Run the set on the parent version and on the draft, and compare them</source>
        <translation>在父版本和草稿上运行评测集并进行比较</translation>
    </message>
    <message>
        <source>Nothing published yet: there is no parent version to compare with.</source>
        <translation>尚未发布任何版本：没有可比较的父版本。</translation>
    </message>
    <message>
        <source>This registry has no eval set yet (add one in Evals).</source>
        <translation>此注册表还没有评测集（请在“评测”中添加）。</translation>
    </message>
    <message>
        <source>No model profile yet: add one in the Playground.</source>
        <translation>尚无模型配置：请在调试台中添加。</translation>
    </message>
    <message>
        <source>Optional: not run yet.</source>
        <translation>可选：尚未运行。</translation>
    </message>
    <message>
        <source>Running {set} on {a} and the draft…</source>
        <translation>正在 {a} 和草稿上运行 {set}…</translation>
    </message>
    <message>
        <source>{done} of {total} attempts…</source>
        <translation>{total} 次尝试中已完成 {done} 次…</translation>
    </message>
    <message>
        <source>fixed {fixed}, broken {broken} of {cases} cases · run {run}</source>
        <translation>{cases} 个用例中修复 {fixed} 个、变坏 {broken} 个 · 运行 {run}</translation>
    </message>
    <message>
        <source>broken: {cases}</source>
        <translation>变坏：{cases}</translation>
    </message>
    <message>
        <source>Significantly worse than the parent: `studio publish --require-evals` would refuse this.</source>
        <translation>明显比父版本差：`studio publish --require-evals` 会拒绝此次发布。</translation>
    </message>
</context>
<context>
    <name>RegistryJobs</name>
    <message>
        <source>{source} was not imported; nothing was changed.</source>
        <translation>{source} 未导入；未做任何更改。</translation>
    </message>
    <message>
        <source>… and {more} more</source>
        <translation>… 另有 {more} 个</translation>
    </message>
</context>
<context>
    <name>RegistryListModel</name>
    <message>
        <source>never published</source>
        <translation>从未发布</translation>
    </message>
    <message>
        <source>{name}
{count} tools in the draft · {latest}</source>
        <translation>{name}
草稿中有 {count} 个工具 · {latest}</translation>
    </message>
</context>
<context>
    <name>RegistryOperations</name>
    <message>
        <source>Import cancelled; nothing was changed.</source>
        <translation>导入已取消；未做任何更改。</translation>
    </message>
    <message>
        <source>Registry not created</source>
        <translation>注册表未创建</translation>
    </message>
    <message>
        <source>Created {name}</source>
        <translation>已创建 {name}</translation>
    </message>
    <message>
        <source>Reading and checking {name}…</source>
        <translation>正在读取并检查 {name}…</translation>
    </message>
    <message>
        <source>Starting the pull from {source}…</source>
        <translation>正在开始从 {source} 拉取…</translation>
    </message>
    <message>
        <source>Cannot check</source>
        <translation>无法检查</translation>
    </message>
    <message>
        <source>Checking {registry} against {target}…</source>
        <translation>正在对照 {target} 检查 {registry}…</translation>
    </message>
    <message>
        <source>Check cancelled.</source>
        <translation>检查已取消。</translation>
    </message>
    <message>
        <source>DRIFT: {count} tool(s) differ from {pinned}: {tools}</source>
        <translation>漂移：{count} 个工具与 {pinned} 不同：{tools}</translation>
    </message>
    <message>
        <source>No drift: the live server lists what {pinned} pinned</source>
        <translation>无漂移：服务器当前列出的内容与 {pinned} 固定的一致</translation>
    </message>
    <message>
        <source> · {count} security finding(s) on the live descriptions</source>
        <translation> · 当前描述中有 {count} 个安全发现</translation>
    </message>
    <message>
        <source>A registry named {name!r} already exists. Tick &apos;Replace its draft&apos; to replace its draft (published versions are kept), or enter another registry name.</source>
        <translation>名为 {name!r} 的注册表已存在。勾选“替换其草稿”以替换草稿（已发布的版本保留），或输入其他注册表名称。</translation>
    </message>
    <message>
        <source>Nothing imported: the unsaved changes of {name} are kept. Save them first, or import under another registry name.</source>
        <translation>未导入任何内容：{name} 的未保存修改已保留。请先保存，或以其他注册表名称导入。</translation>
    </message>
    <message>
        <source>Saved the settings of {name}</source>
        <translation>已保存 {name} 的设置</translation>
    </message>
    <message>
        <source>Deleted {name}</source>
        <translation>已删除 {name}</translation>
    </message>
</context>
<context>
    <name>RegistryPrompts</name>
    <message>
        <source> Its unsaved changes are lost too.</source>
        <translation>其未保存的修改也会丢失。</translation>
    </message>
    <message>
        <source>Delete registry</source>
        <translation>删除注册表</translation>
    </message>
    <message>
        <source>Delete {registry} and its draft of {tool_count} tools? This cannot be undone.{lost}</source>
        <translation>删除 {registry} 及其包含 {tool_count} 个工具的草稿？此操作无法撤销。{lost}</translation>
    </message>
    <message>
        <source>Replace the draft</source>
        <translation>替换草稿</translation>
    </message>
    <message>
        <source>{registry} has unsaved changes. The import replaces its draft, and your unsaved changes are lost. Import anyway?</source>
        <translation>{registry} 有未保存的修改。导入会替换其草稿，未保存的修改将丢失。仍要导入吗？</translation>
    </message>
</context>
<context>
    <name>RegistrySettingsDialog</name>
    <message>
        <source>Namespaces, line {line}: {name!r} must be letters, digits, _ and - (≤ 64)</source>
        <translation>命名空间，第 {line} 行：{name!r} 只能包含字母、数字、_ 和 -（≤ 64）</translation>
    </message>
    <message>
        <source>Namespaces, line {line}: {name!r} is named twice</source>
        <translation>命名空间，第 {line} 行：{name!r} 重复命名</translation>
    </message>
    <message>
        <source>{verb!r} is not a verb: use one word of letters and digits, starting with a letter</source>
        <translation>{verb!r} 不是动词：请使用一个由字母和数字组成、以字母开头的单词</translation>
    </message>
    <message>
        <source>Enter at least one verb, e.g. get, list, create.</source>
        <translation>请至少输入一个动词，例如 get、list、create。</translation>
    </message>
    <message>
        <source>Registry settings — {registry}</source>
        <translation>注册表设置 — {registry}</translation>
    </message>
    <message>
        <source>Allowed first words of tool names (verb_noun), comma-separated</source>
        <translation>工具名称（动词_名词）允许使用的首个单词，以逗号分隔</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>标题(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Description:</source>
        <translation>描述(&amp;D)：</translation>
    </message>
    <message>
        <source>&amp;Verbs:</source>
        <translation>动词(&amp;V)：</translation>
    </message>
    <message>
        <source>Reset to default</source>
        <translation>恢复默认</translation>
    </message>
    <message>
        <source>Placeholders: {names}</source>
        <translation>占位符：{names}</translation>
    </message>
    <message>
        <source>Description &amp;template</source>
        <translation>描述模板(&amp;T)</translation>
    </message>
    <message>
        <source>Description template</source>
        <translation>描述模板</translation>
    </message>
    <message>
        <source>Preview: {name}</source>
        <translation>预览：{name}</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>Provider options</source>
        <translation>提供商选项</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>after the tools block (cache the tool list)</source>
        <translation>在工具块之后（缓存工具列表）</translation>
    </message>
    <message>
        <source>one per line, e.g. crm: Customer records</source>
        <translation>每行一个，例如 crm: 客户记录</translation>
    </message>
    <message>
        <source>provider default (AUTO)</source>
        <translation>提供商默认（AUTO）</translation>
    </message>
    <message>
        <source>Anthropic &amp;cache:</source>
        <translation>Anthropic 缓存(&amp;C)：</translation>
    </message>
    <message>
        <source>OpenAI &amp;namespaces:</source>
        <translation>OpenAI 命名空间(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Gemini mode:</source>
        <translation>Gemini 模式(&amp;G)：</translation>
    </message>
    <message>
        <source>Select a tool in the main window to preview the template.</source>
        <translation>在主窗口中选择一个工具以预览模板。</translation>
    </message>
    <message>
        <source>Showing the default template until the problem is fixed.</source>
        <translation>在问题修复之前显示默认模板。</translation>
    </message>
</context>
<context>
    <name>ReleaseChartsWidget</name>
    <message>
        <source>No outcomes recorded yet. The charts show each version&apos;s success rate and p95 latency once clients report calls: serve the registry (Serve above) and send outcomes with the token it prints.</source>
        <translation>尚未记录任何调用结果。客户端上报调用后，图表会显示每个版本的成功率和 p95 延迟：请提供该注册表的服务（上方的“服务”），并使用它打印的令牌上报结果。</translation>
    </message>
</context>
<context>
    <name>ReleaseImpact</name>
    <message>
        <source>no version</source>
        <translation>无版本</translation>
    </message>
    <message>
        <source>No subject changes version (checked on {total:,} simulated subjects).</source>
        <translation>没有主体会更换版本（在 {total:,} 个模拟主体上检查）。</translation>
    </message>
    <message>
        <source>{count:,} move from {old} to {new}</source>
        <translation>{count:,} 个从 {old} 转到 {new}</translation>
    </message>
    <message>
        <source>Of {total:,} simulated subjects, {moves}.</source>
        <translation>在 {total:,} 个模拟主体中，{moves}。</translation>
    </message>
    <message>
        <source>unset</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>v{version} at {share} %</source>
        <translation>v{version}，占 {share} %</translation>
    </message>
    <message>
        <source>first version {label} published</source>
        <translation>已发布首个版本 {label}</translation>
    </message>
    <message>
        <source>{label} published (newest was v{old})</source>
        <translation>已发布 {label}（此前最新为 v{old}）</translation>
    </message>
    <message>
        <source>{name} pinned to v{new} (it followed the newest version)</source>
        <translation>{name} 已固定到 v{new}（此前跟随最新版本）</translation>
    </message>
    <message>
        <source>stable now serves v{new} (was {old})</source>
        <translation>stable 现在提供 v{new}（此前为 {old}）</translation>
    </message>
    <message>
        <source>{name} emptied after its promotion (was {old})</source>
        <translation>{name} 转正后已清空（此前为 {old}）</translation>
    </message>
    <message>
        <source>stable rolled back to v{new} (was v{old})</source>
        <translation>stable 已回滚到 v{new}（此前为 v{old}）</translation>
    </message>
    <message>
        <source>{name} rolled back to 0 % (was {old})</source>
        <translation>{name} 已回滚到 0 %（此前为 {old}）</translation>
    </message>
    <message>
        <source>stable set to v{new} (was {old})</source>
        <translation>stable 已设为 v{new}（此前为 {old}）</translation>
    </message>
    <message>
        <source>{name} set to v{new} for {share} % of subjects (was {old})</source>
        <translation>{name} 已设为 v{new}，覆盖 {share} % 的主体（此前为 {old}）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>ReleaseView</name>
    <message>
        <source>Publish the draft…</source>
        <translation>发布草稿…</translation>
    </message>
    <message>
        <source>No registry is open. Open or import one in the Editor (Ctrl+1).</source>
        <translation>未打开注册表。请在编辑器（Ctrl+1）中打开或导入一个。</translation>
    </message>
    <message>
        <source>{registry} has no published version yet. Channels serve published versions: publish the draft, then set a canary here and watch the guard.</source>
        <translation>{registry} 还没有已发布的版本。渠道只提供已发布的版本：请先发布草稿，然后在这里设置金丝雀并观察守护。</translation>
    </message>
    <message>
        <source>Stable follows the newest version (v{old}); setting a canary pins it to v{new}.</source>
        <translation>stable 跟随最新版本（v{old}）；设置金丝雀会把它固定到 v{new}。</translation>
    </message>
    <message>
        <source>Promote</source>
        <translation>提升</translation>
    </message>
    <message>
        <source>Set canary…</source>
        <translation>设置金丝雀…</translation>
    </message>
    <message>
        <source>Make the canary&apos;s version stable (canary goes to 0 %)</source>
        <translation>将金丝雀的版本设为 stable（金丝雀降到 0 %）</translation>
    </message>
    <message>
        <source>Roll back canary</source>
        <translation>回滚金丝雀</translation>
    </message>
    <message>
        <source>Set the canary to 0 %</source>
        <translation>将金丝雀设为 0 %</translation>
    </message>
    <message>
        <source>Roll back stable</source>
        <translation>回滚 stable</translation>
    </message>
    <message>
        <source>Return stable to its previous version</source>
        <translation>将 stable 恢复到上一个版本</translation>
    </message>
    <message>
        <source>Serve</source>
        <translation>提供服务</translation>
    </message>
    <message>
        <source>Serve published versions over HTTP on 127.0.0.1</source>
        <translation>在 127.0.0.1 上通过 HTTP 提供已发布的版本</translation>
    </message>
    <message>
        <source>Channel log</source>
        <translation>渠道日志</translation>
    </message>
    <message>
        <source>Simulator</source>
        <translation>模拟器</translation>
    </message>
    <message>
        <source>Guard</source>
        <translation>守护</translation>
    </message>
    <message>
        <source>&lt;b&gt;No registry&lt;/b&gt; — open one in the Editor.</source>
        <translation>&lt;b&gt;未打开注册表&lt;/b&gt; — 请在编辑器中打开一个。</translation>
    </message>
    <message>
        <source> (stable follows the newest version)</source>
        <translation>（stable 跟随最新版本）</translation>
    </message>
    <message>
        <source>&lt;b&gt;{registry}&lt;/b&gt; — channels{follow}</source>
        <translation>&lt;b&gt;{registry}&lt;/b&gt; — 渠道{follow}</translation>
    </message>
    <message>
        <source>Why promote v{version} to stable?</source>
        <translation>为什么要将 v{version} 提升为 stable？</translation>
    </message>
    <message>
        <source>stable to its previous version</source>
        <translation>stable 回到上一个版本</translation>
    </message>
    <message>
        <source>the canary to 0 %</source>
        <translation>金丝雀降到 0 %</translation>
    </message>
    <message>
        <source>Roll back</source>
        <translation>回滚</translation>
    </message>
    <message>
        <source>Why roll back {what}?</source>
        <translation>为什么要回滚{what}？</translation>
    </message>
</context>
<context>
    <name>RenamesPanel</name>
    <message>
        <source>Old name</source>
        <translation>旧名称</translation>
    </message>
    <message>
        <source>New name</source>
        <translation>新名称</translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>No rename candidates: no removed tool resembles an added one.</source>
        <translation>没有重命名候选：没有被移除的工具与新增的工具相似。</translation>
    </message>
    <message>
        <source>A tool missing from B</source>
        <translation>B 中缺少的工具</translation>
    </message>
    <message>
        <source>A tool new in B</source>
        <translation>B 中新增的工具</translation>
    </message>
    <message>
        <source>Confirm rename</source>
        <translation>确认重命名</translation>
    </message>
    <message>
        <source>Treat the removed tool as renamed to the added one</source>
        <translation>将被移除的工具视为重命名为新增的工具</translation>
    </message>
    <message>
        <source>Pair:</source>
        <translation>配对：</translation>
    </message>
    <message>
        <source>Confirm</source>
        <translation>确认</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
</context>
<context>
    <name>ReplayBar</name>
    <message>
        <source>First</source>
        <translation>第一步</translation>
    </message>
    <message>
        <source>Back to the first step</source>
        <translation>回到第一步</translation>
    </message>
    <message>
        <source>◀ Previous</source>
        <translation>◀ 上一步</translation>
    </message>
    <message>
        <source>The previous message (Alt+Left)</source>
        <translation>上一条消息（Alt+左方向键）</translation>
    </message>
    <message>
        <source>Next ▶</source>
        <translation>下一步 ▶</translation>
    </message>
    <message>
        <source>The next message (Alt+Right)</source>
        <translation>下一条消息（Alt+右方向键）</translation>
    </message>
    <message>
        <source>The previous step with a problem</source>
        <translation>上一个有问题的步骤</translation>
    </message>
    <message>
        <source>Next problem ⚠</source>
        <translation>下一个问题 ⚠</translation>
    </message>
    <message>
        <source>The next step with a problem</source>
        <translation>下一个有问题的步骤</translation>
    </message>
    <message>
        <source>No session</source>
        <translation>无会话</translation>
    </message>
    <message>
        <source>Before step 1 / {count}</source>
        <translation>第 1 步之前 / 共 {count} 步</translation>
    </message>
    <message>
        <source>Step {number} / {count}</source>
        <translation>第 {number} 步 / 共 {count} 步</translation>
    </message>
    <message>
        <source>{count} pending</source>
        <translation>{count} 个待返回</translation>
    </message>
    <message>
        <source>{count} problem</source>
        <translation>{count} 个问题</translation>
    </message>
    <message>
        <source>{count} problems</source>
        <translation>{count} 个问题</translation>
    </message>
    <message>
        <source>The next step with a problem ({count} step{value} with problems)</source>
        <translation>下一个有问题的步骤（共 {count} 个有问题的步骤{value}）</translation>
    </message>
</context>
<context>
    <name>ReportView</name>
    <message>
        <source>Choose a run to see its report.</source>
        <extracomment>Export formats offered: (format for :func:`studio.evals.report.render`, file suffix). The result shown under each call of an eval answer (the eval does not execute tools).</extracomment>
        <translation>选择一次运行以查看其报告。</translation>
    </message>
    <message>
        <source>Markdown…</source>
        <translation>Markdown…</translation>
    </message>
    <message>
        <source>HTML…</source>
        <translation>HTML…</translation>
    </message>
    <message>
        <source>JSON…</source>
        <translation>JSON…</translation>
    </message>
    <message>
        <source>Export the report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>Selection and arguments per variant</source>
        <translation>各变体的选择与参数</translation>
    </message>
    <message>
        <source>Per-tool pass rates</source>
        <translation>各工具通过率</translation>
    </message>
    <message>
        <source>Variant and profile</source>
        <translation>变体与配置</translation>
    </message>
    <message>
        <source>Click a cell to list its cases.</source>
        <translation>点击单元格以列出其用例。</translation>
    </message>
    <message>
        <source>Cases of the chosen cell</source>
        <translation>所选单元格的用例</translation>
    </message>
    <message>
        <source>Flips</source>
        <translation>翻转</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>Scores and calls</source>
        <translation>评分与调用</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Confusion</source>
        <translation>混淆</translation>
    </message>
    <message>
        <source>Case</source>
        <translation>用例</translation>
    </message>
    <message>
        <source>One variant: run A vs B to get a verdict.</source>
        <translation>只有一个变体：运行 A 对比 B 才能得出结论。</translation>
    </message>
    <message>
        <source>Variant · profile</source>
        <translation>变体 · 配置</translation>
    </message>
    <message>
        <source>Cases</source>
        <translation>用例</translation>
    </message>
    <message>
        <source>Selection</source>
        <translation>选择</translation>
    </message>
    <message>
        <source>Arguments raw</source>
        <translation>原始参数</translation>
    </message>
    <message>
        <source>Arguments after pipeline</source>
        <translation>流水线处理后的参数</translation>
    </message>
    <message>
        <source>End-to-end</source>
        <translation>端到端</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Δ</source>
        <translation>Δ</translation>
    </message>
    <message>
        <source>Fixed</source>
        <translation>已修复</translation>
    </message>
    <message>
        <source>Broken</source>
        <translation>变坏</translation>
    </message>
    <message>
        <source>Support</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <source>Expected {expected}, chose {chosen}: {count} attempt(s)</source>
        <translation>期望 {expected}，选择了 {chosen}：{count} 次尝试</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Status: {status}</source>
        <translation>状态：{status}</translation>
    </message>
    <message>
        <source>Expected: {expected} · chose: {chosen}</source>
        <translation>期望：{expected} · 选择：{chosen}</translation>
    </message>
    <message>
        <source>Raw: {verdict}</source>
        <translation>原始：{verdict}</translation>
    </message>
    <message>
        <source>After the pipeline: {verdict}</source>
        <translation>流水线处理后：{verdict}</translation>
    </message>
    <message>
        <source>Calls as sent:</source>
        <translation>发送时的调用：</translation>
    </message>
    <message>
        <source>Calls after the pipeline:</source>
        <translation>流水线处理后的调用：</translation>
    </message>
    <message>
        <source>Tokens in {tin} · out {tout} · {ms:.0f} ms{cached}</source>
        <translation>Token 输入 {tin} · 输出 {tout} · {ms:.0f} ms{cached}</translation>
    </message>
    <message>
        <source> · cached</source>
        <translation> · 已缓存</translation>
    </message>
    <message>
        <source>Answer text: {text}</source>
        <translation>回答文本：{text}</translation>
    </message>
    <message>
        <source>No report to export</source>
        <translation>没有可导出的报告</translation>
    </message>
</context>
<context>
    <name>ResponseFormWidget</name>
    <message>
        <source>All matchers must hold. Path: an argument name, a.b or items[0]. Value: JSON (80, true, [..]) or plain text; a regex is searched in the value&apos;s text.</source>
        <translation>所有匹配条件都必须成立。路径：参数名、a.b 或 items[0]。值：JSON（80、true、[..]）或纯文本；正则表达式在值的文本中搜索。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Add a matcher (all matchers must hold)</source>
        <translation>添加匹配条件（所有条件都必须成立）</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove the selected matcher</source>
        <translation>移除所选匹配条件</translation>
    </message>
    <message>
        <source>When (all must hold)</source>
        <translation>条件（必须全部成立）</translation>
    </message>
    <message>
        <source>e.g. TICKET_NOT_FOUND (status 400 or more)</source>
        <translation>例如 TICKET_NOT_FOUND（状态码 400 及以上）</translation>
    </message>
    <message>
        <source>Apply to the first n matching calls only (then the next response is tried): fail once, then succeed</source>
        <translation>只对前 n 次匹配的调用生效（之后尝试下一个响应）：先失败一次，再成功</translation>
    </message>
    <message>
        <source>The JSON the tool answers, e.g. {&quot;ticket_id&quot;: &quot;R-55821&quot;, &quot;amount&quot;: &quot;{amount}&quot;}</source>
        <translation>工具应答的 JSON，例如 {&quot;ticket_id&quot;: &quot;R-55821&quot;, &quot;amount&quot;: &quot;{amount}&quot;}</translation>
    </message>
    <message>
        <source>Strings &quot;{arg}&quot; and &quot;{idempotency_key}&quot; are filled in; a string that is exactly &quot;{arg}&quot; takes the argument&apos;s JSON value</source>
        <translation>字符串中的 &quot;{arg}&quot; 和 &quot;{idempotency_key}&quot; 会被填入；恰好为 &quot;{arg}&quot; 的字符串取该参数的 JSON 值</translation>
    </message>
    <message>
        <source>Then</source>
        <translation>则</translation>
    </message>
    <message>
        <source>&amp;Failure</source>
        <translation>失败(&amp;F)</translation>
    </message>
    <message>
        <source>error code</source>
        <translation>错误码</translation>
    </message>
    <message>
        <source>&amp;Status</source>
        <translation>状态码(&amp;S)</translation>
    </message>
    <message>
        <source>Retry-After</source>
        <translation>Retry-After</translation>
    </message>
    <message>
        <source>times</source>
        <translation>次</translation>
    </message>
    <message>
        <source>&amp;Latency</source>
        <translation>延迟(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Body</source>
        <translation>请求体(&amp;B)</translation>
    </message>
    <message>
        <source>Select a response, or add one.</source>
        <translation>选择一个响应，或添加一个。</translation>
    </message>
    <message>
        <source>This response is not a JSON object: fix it in the JSON view.</source>
        <translation>此响应不是 JSON 对象：请在 JSON 视图中修正。</translation>
    </message>
    <message>
        <source>The default answers every call no response above matches.</source>
        <translation>默认响应应答所有不匹配上方任何响应的调用。</translation>
    </message>
</context>
<context>
    <name>RevalidateView</name>
    <message>
        <source>1 recorded call</source>
        <translation>1 次已记录的调用</translation>
    </message>
    <message>
        <source>{total} recorded calls</source>
        <translation>{total} 次已记录的调用</translation>
    </message>
    <message>
        <source>{calls} against {registry} {version}: </source>
        <translation>对照 {registry} {version} 的 {calls}：</translation>
    </message>
    <message>
        <source>The registry to re-validate against</source>
        <translation>用于重新验证的注册表</translation>
    </message>
    <message>
        <source>The draft or a published version</source>
        <translation>草稿或某个已发布版本</translation>
    </message>
    <message>
        <source>Re-validate</source>
        <translation>重新验证</translation>
    </message>
    <message>
        <source>Pick a registry and a version, then Re-validate.</source>
        <translation>选择注册表和版本，然后点击“重新验证”。</translation>
    </message>
    <message>
        <source>Re-validation</source>
        <translation>重新验证</translation>
    </message>
    <message>
        <source>Against</source>
        <translation>对照</translation>
    </message>
    <message>
        <source>draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <source>There is no registry to re-validate against.</source>
        <translation>没有可用于重新验证的注册表。</translation>
    </message>
    <message>
        <source>Cannot read that version: {exc}</source>
        <translation>无法读取该版本：{exc}</translation>
    </message>
    <message>
        <source>Re-validating against {name} {version}…</source>
        <translation>正在对照 {name} {version} 重新验证…</translation>
    </message>
    <message>
        <source>Re-validation failed: {message}</source>
        <translation>重新验证失败：{message}</translation>
    </message>
</context>
<context>
    <name>RevalidationStatus</name>
    <message>
        <source>passes</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>mapped-differently</source>
        <translation>映射不同</translation>
    </message>
    <message>
        <source>fails</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>tool-gone</source>
        <translation>工具已不存在</translation>
    </message>
</context>
<context>
    <name>RevalidationTableModel</name>
    <message>
        <source>recorded: </source>
        <translation>记录的：</translation>
    </message>
    <message>
        <source>prepared now: </source>
        <translation>现在准备的：</translation>
    </message>
    <message>
        <source>note: {note}</source>
        <translation>注：{note}</translation>
    </message>
</context>
<context>
    <name>ReviewSummary</name>
    <message>
        <source>breaking ack&apos;d: {count}</source>
        <translation>已确认破坏性变更：{count}</translation>
    </message>
    <message>
        <source>Published without a review (e.g. from the command line).</source>
        <translation>发布时未经审阅（例如从命令行发布）。</translation>
    </message>
    <message>
        <source>Reviewed against {against}</source>
        <translation>审阅基线：{against}</translation>
    </message>
    <message>
        <source>Suggested {level}: {reasons}</source>
        <translation>建议{level}：{reasons}</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Breaking changes acknowledged by {who}:</source>
        <translation>由 {who} 确认的破坏性变更：</translation>
    </message>
</context>
<context>
    <name>RunDialog</name>
    <message>
        <source>Run eval set {name}</source>
        <translation>运行评测集 {name}</translation>
    </message>
    <message>
        <source>(none: one variant)</source>
        <translation>（无：单一变体）</translation>
    </message>
    <message>
        <source>Model profiles</source>
        <translation>模型配置</translation>
    </message>
    <message>
        <source>No model profile yet: add one in the Playground (Profiles…).</source>
        <translation>尚无模型配置：请在调试台中添加（配置…）。</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Reuse cached answers for identical requests</source>
        <translation>对相同请求复用缓存的回答</translation>
    </message>
    <message>
        <source>Multi-step: play whole conversations on the mocks</source>
        <translation>多步：在模拟响应上完整运行整段对话</translation>
    </message>
    <message>
        <source>Tools run as the registry&apos;s stored mocks until the model answers; scores end-to-end success and grounding</source>
        <translation>工具按注册表中存储的模拟响应运行，直到模型作答；评估端到端的成功率和依据性</translation>
    </message>
    <message>
        <source>A (baseline):</source>
        <translation>A（基线）：</translation>
    </message>
    <message>
        <source>B (candidate):</source>
        <translation>B（候选）：</translation>
    </message>
    <message>
        <source>Profiles:</source>
        <translation>配置：</translation>
    </message>
    <message>
        <source>Repetitions:</source>
        <translation>重复次数：</translation>
    </message>
    <message>
        <source>Concurrency:</source>
        <translation>并发数：</translation>
    </message>
    <message>
        <source>Budget (requests):</source>
        <translation>预算（请求数）：</translation>
    </message>
    <message>
        <source>Budget (tokens):</source>
        <translation>预算（token 数）：</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
</context>
<context>
    <name>ScoreWidget</name>
    <message>
        <source>Purpose</source>
        <translation>用途</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>用法</translation>
    </message>
    <message>
        <source>Limitations</source>
        <translation>限制</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Examples</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>Completeness</source>
        <translation>完整性</translation>
    </message>
    <message>
        <source>Transparency</source>
        <translation>透明度</translation>
    </message>
    <message>
        <source>Conciseness</source>
        <translation>简洁性</translation>
    </message>
    <message>
        <source>Registry TDQS: — (no tools)</source>
        <translation>注册表 TDQS：—（无工具）</translation>
    </message>
    <message>
        <source>1 tool</source>
        <translation>1 个工具</translation>
    </message>
    <message>
        <source>{count} tools</source>
        <translation>{count} 个工具</translation>
    </message>
    <message>
        <source>Registry TDQS: {score:.1f} · {tier} (0.6 × mean {mean:.1f} + 0.4 × min {minimum:.1f}, {tools})</source>
        <translation>注册表 TDQS：{score:.1f} · {tier}（0.6 × 平均 {mean:.1f} + 0.4 × 最低 {minimum:.1f}，{tools}）</translation>
    </message>
    <message>
        <source>Glama&apos;s open Tool Definition Quality Score (spec 1.2), computed deterministically from the component scores: {weights}. Tiers A ≥ 3.5, B ≥ 3.0 (passing), C ≥ 2.0, D ≥ 1.0; the registry is 0.6 × mean + 0.4 × min of its tools.</source>
        <translation>Glama 开放的工具定义质量评分（TDQS，规范 1.2），由各分项评分确定性地计算：{weights}。等级 A ≥ 3.5，B ≥ 3.0（及格），C ≥ 2.0，D ≥ 1.0；注册表评分为其工具的 0.6 × 平均值 + 0.4 × 最低值。</translation>
    </message>
    <message>
        <source>estimate</source>
        <translation>估算</translation>
    </message>
    <message>
        <source>{tools} · {approx}{total} tokens of definitions (≈ {average} per tool)
Per task: {approx}{total} tokens × {rounds} rounds = {approx}{per_task} ({method})</source>
        <translation>{tools} · 定义共 {approx}{total} 个 token（每个工具 ≈ {average}）
每个任务：{approx}{total} 个 token × {rounds} 轮 = {approx}{per_task}（{method}）</translation>
    </message>
    <message>
        <source>≈ {count} tokens</source>
        <translation>≈ {count} 个 token</translation>
    </message>
    <message>
        <source>{count} tokens ({method})</source>
        <translation>{count} 个 token（{method}）</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Registry</source>
        <translation>注册表</translation>
    </message>
    <message>
        <source>Mean scores of the registry</source>
        <translation>注册表平均评分</translation>
    </message>
    <message>
        <source>TDQS</source>
        <translation>TDQS</translation>
    </message>
    <message>
        <source>Tool: none selected</source>
        <translation>工具：未选择</translation>
    </message>
    <message>
        <source>Tool: not linted yet</source>
        <translation>工具：尚未检查</translation>
    </message>
    <message>
        <source>No tool selected</source>
        <translation>未选择工具</translation>
    </message>
    <message>
        <source>Not linted yet</source>
        <translation>尚未检查</translation>
    </message>
    <message>
        <source>Tool: {name} · {total}/30 · {tokens}</source>
        <translation>工具：{name} · {total}/30 · {tokens}</translation>
    </message>
    <message>
        <source>Description score {total}/30 (mean {average:.1f}) · {tokens}</source>
        <translation>描述评分 {total}/30（平均 {average:.1f}）· {tokens}</translation>
    </message>
    <message>
        <source>{text}
Tokens: the name, the rendered description and the parameters the model sees, plus {PER_TOOL_OVERHEAD} for the provider&apos;s wrapper (what the cost rules count; the preview counts its whole JSON).</source>
        <translation>{text}
Token：模型看到的名称、渲染后的描述和参数，另加提供商封装的 {PER_TOOL_OVERHEAD} 个（即成本规则计算的部分；预览计算的是完整 JSON）。</translation>
    </message>
    <message>
        <source>Registry TDQS: not linted yet</source>
        <translation>注册表 TDQS：尚未检查</translation>
    </message>
    <message>
        <source>Registry: {registry} ({profile})</source>
        <translation>注册表：{registry}（{profile}）</translation>
    </message>
</context>
<context>
    <name>SessionCaseDialog</name>
    <message>
        <source>Add as eval case</source>
        <translation>添加为评测用例</translation>
    </message>
    <message>
        <source>Eval set</source>
        <translation>评测集</translation>
    </message>
    <message>
        <source>Add to set:</source>
        <translation>添加到评测集：</translation>
    </message>
    <message>
        <source>the set {name} has this case already: {id}</source>
        <translation>评测集 {name} 中已有此用例：{id}</translation>
    </message>
</context>
<context>
    <name>SessionPrompts</name>
    <message>
        <source>OpenAI chat</source>
        <translation>OpenAI Chat</translation>
    </message>
    <message>
        <source>Anthropic messages</source>
        <translation>Anthropic Messages</translation>
    </message>
    <message>
        <source>Import a session log</source>
        <translation>导入会话日志</translation>
    </message>
    <message>
        <source>Session logs (*.json *.jsonl *.traj);;All files (*)</source>
        <translation>会话日志 (*.json *.jsonl *.traj);;所有文件 (*)</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export session as {format}</source>
        <translation>将会话导出为 {format}</translation>
    </message>
    <message>
        <source>Replace the draft?</source>
        <translation>替换草稿？</translation>
    </message>
    <message>
        <source>{registry} already exists. Replace its draft with the tools from the log? Published versions are kept.</source>
        <translation>{registry} 已存在。用日志中的工具替换其草稿吗？已发布的版本保留。</translation>
    </message>
</context>
<context>
    <name>SessionSource</name>
    <message>
        <source>import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>playground</source>
        <translation>调试台</translation>
    </message>
    <message>
        <source>replay</source>
        <translation>回放</translation>
    </message>
    <message>
        <source>mcp</source>
        <translation>MCP</translation>
    </message>
    <message>
        <source>proxy</source>
        <translation>代理</translation>
    </message>
    <message>
        <source>repair</source>
        <translation>修复</translation>
    </message>
    <message>
        <source>convert</source>
        <translation>转换</translation>
    </message>
    <message>
        <source>trim</source>
        <translation>裁剪</translation>
    </message>
</context>
<context>
    <name>SessionViewer</name>
    <message>
        <source>Proxy exchanges</source>
        <translation>代理往来</translation>
    </message>
    <message>
        <source>Select a session</source>
        <translation>选择一个会话</translation>
    </message>
    <message>
        <source>Replay as model…</source>
        <translation>作为模型回放…</translation>
    </message>
    <message>
        <source>Play the recorded assistant turns as the model against the current runtime, registry version and executors; optionally fork at the current step with a live model</source>
        <translation>将记录的助手轮次作为模型，在当前运行时、注册表版本和执行器上回放；也可以在当前步骤分叉，改用真实模型</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the replay</source>
        <translation>停止回放</translation>
    </message>
    <message>
        <source>Repair…</source>
        <translation>修复…</translation>
    </message>
    <message>
        <source>The smallest change that makes this history valid for a provider</source>
        <translation>使此历史记录对某个提供商有效的最小改动</translation>
    </message>
    <message>
        <source>Convert…</source>
        <translation>转换…</translation>
    </message>
    <message>
        <source>This conversation in another provider&apos;s wire shape</source>
        <translation>以另一个提供商的传输格式呈现此对话</translation>
    </message>
    <message>
        <source>Trim…</source>
        <translation>裁剪…</translation>
    </message>
    <message>
        <source>Drop the oldest messages to fit a token budget, at safe points only</source>
        <translation>丢弃最早的消息以适应 token 预算，只在安全位置截断</translation>
    </message>
    <message>
        <source>Pending tool calls</source>
        <translation>待处理的工具调用</translation>
    </message>
    <message>
        <source>No problem at this step</source>
        <translation>此步骤没有问题</translation>
    </message>
    <message>
        <source>Problems at this step</source>
        <translation>此步骤的问题</translation>
    </message>
    <message>
        <source>Eval case…</source>
        <translation>评测用例…</translation>
    </message>
    <message>
        <source>Add this step&apos;s user turn and the calls it led to as an eval case</source>
        <translation>将此步骤的用户轮次及其引发的调用添加为评测用例</translation>
    </message>
    <message>
        <source>Event log</source>
        <translation>事件日志</translation>
    </message>
    <message>
        <source>{count} messages</source>
        <translation>{count} 条消息</translation>
    </message>
    <message>
        <source>Answered here: {calls}</source>
        <translation>在此处应答：{calls}</translation>
    </message>
    <message>
        <source>Added {case} to the eval set {name}</source>
        <translation>已将 {case} 添加到评测集 {name}</translation>
    </message>
</context>
<context>
    <name>SessionsTableModel</name>
    <message>
        <source>New messages arrived while the list was open</source>
        <translation>列表打开期间收到了新消息</translation>
    </message>
    <message>
        <source>Counting again: the session has grown since</source>
        <translation>正在重新计数：会话在此之后有新消息</translation>
    </message>
    <message>
        <source>(untitled)</source>
        <translation>（无标题）</translation>
    </message>
    <message>
        <source>{count} pairing problem(s) and suspicious pattern(s)</source>
        <translation>{count} 个配对问题和可疑模式</translation>
    </message>
</context>
<context>
    <name>SessionsView</name>
    <message>
        <source>Record proxy…</source>
        <translation>录制代理…</translation>
    </message>
    <message>
        <source>Start the recording proxy: point an agent at it instead of its provider and watch its sessions arrive here, with a problem badge on broken histories</source>
        <translation>启动录制代理：让智能体连接它而不是模型提供方，会话会实时出现在这里，历史有问题时带问题标记</translation>
    </message>
    <message>
        <source>Stop proxy</source>
        <translation>停止代理</translation>
    </message>
    <message>
        <source>Recording proxy on {url} → {upstream} ({kind})</source>
        <translation>录制代理 {url} → {upstream}（{kind}）</translation>
    </message>
    <message>
        <source>Proxy not started</source>
        <translation>代理未启动</translation>
    </message>
    <message>
        <source>The upstream must be an http(s) URL, not &apos;{url}&apos;</source>
        <translation>上游必须是 http(s) URL，而不是“{url}”</translation>
    </message>
    <message>
        <source>Could not listen on 127.0.0.1:{port}: {error}</source>
        <translation>无法在 127.0.0.1:{port} 上监听：{error}</translation>
    </message>
    <message>
        <source>any port</source>
        <translation>任意端口</translation>
    </message>
    <message>
        <source>Filter by title, id, model</source>
        <translation>按标题、ID、模型筛选</translation>
    </message>
    <message>
        <source>All sources</source>
        <translation>所有来源</translation>
    </message>
    <message>
        <source>All registries</source>
        <translation>所有注册表</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Import log…</source>
        <translation>导入日志…</translation>
    </message>
    <message>
        <source>Import sessions from an OpenAI, Anthropic or Gemini log, a SWE-agent trajectory, a Claude Code session file or a Codex rollout</source>
        <translation>从 OpenAI、Anthropic 或 Gemini 日志、SWE-agent 轨迹、Claude Code 会话文件或 Codex rollout 导入会话</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Export session… (OpenAI, Anthropic or JSONL; secrets redacted)</source>
        <translation>导出会话…（OpenAI、Anthropic 或 JSONL；密钥已脱敏）</translation>
    </message>
    <message>
        <source>{format}…</source>
        <translation>{format}…</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Re-validation</source>
        <translation>重新验证</translation>
    </message>
    <message>
        <source>1 session</source>
        <translation>1 个会话</translation>
    </message>
    <message>
        <source>{total} sessions</source>
        <translation>{total} 个会话</translation>
    </message>
    <message>
        <source>{shown} of 1 session shown</source>
        <translation>显示 {shown}/1 个会话</translation>
    </message>
    <message>
        <source>{shown} of {total} sessions shown</source>
        <translation>显示 {shown}/{total} 个会话</translation>
    </message>
    <message>
        <source>Nothing to replay against</source>
        <translation>没有可用于回放的对象</translation>
    </message>
    <message>
        <source>Create a registry first.</source>
        <translation>请先创建一个注册表。</translation>
    </message>
    <message>
        <source>Replay of {title}</source>
        <translation>{title} 的回放</translation>
    </message>
    <message>
        <source>Replay not started</source>
        <translation>回放未开始</translation>
    </message>
    <message>
        <source>, live {profile} from step {step}</source>
        <translation>，从第 {step} 步起使用真实模型 {profile}</translation>
    </message>
    <message>
        <source>Replaying against {registry} {version}{fork}…</source>
        <translation>正在对照 {registry} {version} 回放{fork}…</translation>
    </message>
    <message>
        <source>Replay {status}</source>
        <translation>回放{status}</translation>
    </message>
    <message>
        <source>Not exported</source>
        <translation>未导出</translation>
    </message>
    <message>
        <source>Could not write {path}: {error}</source>
        <translation>无法写入 {path}：{error}</translation>
    </message>
    <message>
        <source>no registry</source>
        <translation>无注册表</translation>
    </message>
    <message>
        <source>unknown model</source>
        <translation>未知模型</translation>
    </message>
    <message>
        <source>{count} messages</source>
        <translation>{count} 条消息</translation>
    </message>
</context>
<context>
    <name>Severity</name>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>info</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>信息</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Replay: previous message</source>
        <translation>回放：上一条消息</translation>
    </message>
    <message>
        <source>Replay: next message</source>
        <translation>回放：下一条消息</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
</context>
<context>
    <name>SimilarToolsView</name>
    <message>
        <source>both descriptions</source>
        <translation>两个描述都有</translation>
    </message>
    <message>
        <source>only {a}: add a line to {b}</source>
        <translation>只有 {a} 有：请在 {b} 中加一行</translation>
    </message>
    <message>
        <source>neither: add “use X instead” to both</source>
        <translation>都没有：请在两者中都加上“改用 X”</translation>
    </message>
    <message>
        <source>similar descriptions</source>
        <translation>描述相似</translation>
    </message>
    <message>
        <source>confusable names</source>
        <translation>名称易混淆</translation>
    </message>
    <message>
        <source>related</source>
        <translation>相关</translation>
    </message>
    <message>
        <source>{a} ↔ {b}: similarity {score:.2f} ({kind}); shared words: {shared}. Line that tells them apart: {apart}.</source>
        <translation>{a} ↔ {b}：相似度 {score:.2f}（{kind}）；共同词语：{shared}。区分说明：{apart}。</translation>
    </message>
    <message>
        <source>Pairs of tools a model may confuse. Each description should say when to use the other tool instead.</source>
        <translation>模型可能混淆的工具对。每个描述都应说明何时应改用另一个工具。</translation>
    </message>
</context>
<context>
    <name>SimulatorWidget</name>
    <message>
        <source>Subject ids, one per line or separated by commas</source>
        <translation>主体 ID，每行一个或以逗号分隔</translation>
    </message>
    <message>
        <source>Generate</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>Replace the subjects with N random ids</source>
        <translation>用 N 个随机 ID 替换主体</translation>
    </message>
    <message>
        <source>Canary share to preview (nothing is saved)</source>
        <translation>要预览的金丝雀比例（不会保存）</translation>
    </message>
    <message>
        <source>Preview canary share</source>
        <translation>预览金丝雀比例</translation>
    </message>
    <message>
        <source>Paste subject ids or generate some to see the split.</source>
        <translation>粘贴主体 ID 或生成一些，查看分流情况。</translation>
    </message>
    <message>
        <source>{total} subjects: </source>
        <translation>{total} 个主体：</translation>
    </message>
</context>
<context>
    <name>SkillEditorWidget</name>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>lowercase-with-hyphens</source>
        <translation>小写字母加连字符</translation>
    </message>
    <message>
        <source>What the skill does and when to use it (and when not).</source>
        <translation>技能做什么、何时使用（以及何时不用）。</translation>
    </message>
    <message>
        <source>tool names, separated by spaces</source>
        <translation>工具名称，以空格分隔</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>Allowed tools</source>
        <translation>允许的工具</translation>
    </message>
    <message>
        <source>Other keys</source>
        <translation>其他键</translation>
    </message>
    <message>
        <source>Add file…</source>
        <translation>添加文件…</translation>
    </message>
    <message>
        <source>Remove file</source>
        <translation>移除文件</translation>
    </message>
    <message>
        <source>Files in the skill&apos;s folder</source>
        <translation>技能文件夹中的文件</translation>
    </message>
    <message>
        <source>The steps, in Markdown.</source>
        <translation>步骤，使用 Markdown 编写。</translation>
    </message>
    <message>
        <source>Body (Markdown)</source>
        <translation>正文（Markdown）</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>Add %1</source>
        <translation>添加%1</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>移除%1</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>编辑%1</translation>
    </message>
    <message>
        <source>Edit body</source>
        <translation>编辑正文</translation>
    </message>
    <message>
        <source>Add a file to the skill</source>
        <translation>向技能添加文件</translation>
    </message>
    <message>
        <source>No skill selected</source>
        <translation>未选择技能</translation>
    </message>
    <message>
        <source>%1 / %2 characters · ~%3 tokens in every request</source>
        <translation>%1 / %2 个字符 · 每个请求约 %3 个 token</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Listed to the model; runs only through an executor you configure</source>
        <translation>列给模型看；只通过你配置的执行器运行</translation>
    </message>
</context>
<context>
    <name>SkillsPanel</name>
    <message>
        <source>Save skills</source>
        <translation>保存技能</translation>
    </message>
    <message>
        <source>Choose a skill to edit it, or a remote agent to see its card.</source>
        <translation>选择一个技能进行编辑，或选择一个远程智能体查看其卡片。</translation>
    </message>
    <message>
        <source>Skills not saved</source>
        <translation>技能未保存</translation>
    </message>
    <message>
        <source>Tools (%1)</source>
        <translation>工具（%1）</translation>
    </message>
    <message>
        <source>Skills (%1)</source>
        <translation>技能（%1）</translation>
    </message>
    <message>
        <source>Remote agents (%1)</source>
        <translation>远程智能体（%1）</translation>
    </message>
    <message>
        <source>No skills in this registry.</source>
        <translation>此注册表中没有技能。</translation>
    </message>
    <message>
        <source>Catalogue: ~%1 tokens resident (names, descriptions); bodies ~%2 tokens on demand</source>
        <translation>目录：常驻约 %1 个 token（名称、描述）；正文按需约 %2 个 token</translation>
    </message>
    <message>
        <source>Skills and remote agents — %1</source>
        <translation>技能和远程智能体 — %1</translation>
    </message>
</context>
<context>
    <name>SpecTableWidget</name>
    <message>
        <source>permission</source>
        <translation>权限</translation>
    </message>
    <message>
        <source>Add {noun}</source>
        <translation>添加{noun}</translation>
    </message>
    <message>
        <source>Remove {noun}</source>
        <translation>移除{noun}</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>example</source>
        <translation>示例</translation>
    </message>
</context>
<context>
    <name>ToolDiffListModel</name>
    <message>
        <source>no classified change</source>
        <translation>无已分类的变更</translation>
    </message>
    <message>
        <source>{tool}: {status}, worst {worst}</source>
        <translation>{tool}：{status}，最严重 {worst}</translation>
    </message>
</context>
<context>
    <name>ToolEditorWidget</name>
    <message>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Contract</source>
        <translation>契约</translation>
    </message>
    <message>
        <source>No tool selected</source>
        <translation>未选择工具</translation>
    </message>
    <message>
        <source>{count} lint finding</source>
        <translation>{count} 条检查结果</translation>
    </message>
    <message>
        <source>{count} lint findings</source>
        <translation>{count} 条检查结果</translation>
    </message>
    <message>
        <source>Version {version} is published and read-only.</source>
        <translation>版本 {version} 已发布，为只读。</translation>
    </message>
</context>
<context>
    <name>ToolList</name>
    <message>
        <source>read: only reads</source>
        <translation>读：只读取</translation>
    </message>
    <message>
        <source>write: changes data</source>
        <translation>写：修改数据</translation>
    </message>
    <message>
        <source>destructive: deletes or cannot be undone</source>
        <translation>破坏性：删除或不可撤销</translation>
    </message>
    <message>
        <source>lint: not run yet</source>
        <translation>检查：尚未运行</translation>
    </message>
    <message>
        <source>lint: no findings</source>
        <translation>检查：无发现</translation>
    </message>
    <message>
        <source>1 error</source>
        <translation>1 个错误</translation>
    </message>
    <message>
        <source>{n} errors</source>
        <translation>{n} 个错误</translation>
    </message>
    <message>
        <source>1 warning</source>
        <translation>1 个警告</translation>
    </message>
    <message>
        <source>{n} warnings</source>
        <translation>{n} 个警告</translation>
    </message>
    <message>
        <source>{n} info</source>
        <translation>{n} 条信息</translation>
    </message>
    <message>
        <source>lint: {counts}</source>
        <translation>检查：{counts}</translation>
    </message>
    <message>
        <source>risk tier {letter} — {label}</source>
        <translation>风险等级 {letter} — {label}</translation>
    </message>
    <message>
        <source>unsaved changes</source>
        <translation>未保存的修改</translation>
    </message>
</context>
<context>
    <name>UndoLabels</name>
    <message>
        <source>Edit {key} of {path}</source>
        <translation>编辑 {path} 的 {key}</translation>
    </message>
    <message>
        <source>Edit {field}</source>
        <translation>编辑{field}</translation>
    </message>
    <message>
        <source>Make {path} required</source>
        <translation>将 {path} 设为必填</translation>
    </message>
    <message>
        <source>Make {path} optional</source>
        <translation>将 {path} 设为可选</translation>
    </message>
    <message>
        <source>Add parameter {path}</source>
        <translation>添加参数 {path}</translation>
    </message>
    <message>
        <source>Remove parameter {path}</source>
        <translation>删除参数 {path}</translation>
    </message>
    <message>
        <source>Rename parameter {old} to {new}</source>
        <translation>将参数 {old} 重命名为 {new}</translation>
    </message>
    <message>
        <source>Edit JSON</source>
        <translation>编辑 JSON</translation>
    </message>
    <message>
        <source>Add tool</source>
        <translation>添加工具</translation>
    </message>
    <message>
        <source>Remove tool</source>
        <translation>移除工具</translation>
    </message>
    <message>
        <source>Delete tool</source>
        <translation>删除工具</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>usage</source>
        <translation>用法</translation>
    </message>
    <message>
        <source>preconditions</source>
        <translation>前置条件</translation>
    </message>
    <message>
        <source>returns</source>
        <translation>返回值</translation>
    </message>
    <message>
        <source>errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>examples</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>description</source>
        <translation>描述</translation>
    </message>
    <message>
        <source>risk</source>
        <translation>风险等级</translation>
    </message>
    <message>
        <source>execution</source>
        <translation>执行设置</translation>
    </message>
    <message>
        <source>permissions</source>
        <translation>权限</translation>
    </message>
    <message>
        <source>tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>domain</source>
        <translation>领域</translation>
    </message>
    <message>
        <source>deprecated</source>
        <translation>弃用标记</translation>
    </message>
    <message>
        <source>output schema</source>
        <translation>输出 Schema</translation>
    </message>
    <message>
        <source>icons</source>
        <translation>图标</translation>
    </message>
    <message>
        <source>annotations</source>
        <translation>注解</translation>
    </message>
    <message>
        <source>meta</source>
        <translation>元数据</translation>
    </message>
    <message>
        <source>provider</source>
        <translation>提供方字段</translation>
    </message>
</context>
<context>
    <name>VersionsPanel</name>
    <message>
        <source>No registry open</source>
        <translation>未打开注册表</translation>
    </message>
    <message>
        <source>Publish…</source>
        <translation>发布…</translation>
    </message>
    <message>
        <source>Publish the saved draft as a new immutable version</source>
        <translation>将已保存的草稿发布为新的不可变版本</translation>
    </message>
    <message>
        <source>Open read-only</source>
        <translation>只读打开</translation>
    </message>
    <message>
        <source>Look at the selected version without changing it</source>
        <translation>查看所选版本而不修改</translation>
    </message>
    <message>
        <source>Compare…</source>
        <translation>比较…</translation>
    </message>
    <message>
        <source>Diff the selected version against the draft</source>
        <translation>将所选版本与草稿比较差异</translation>
    </message>
    <message>
        <source>{count} published version(s) of {registry}</source>
        <translation>{registry} 有 {count} 个已发布版本</translation>
    </message>
    <message>
        <source>{registry} has no published version yet</source>
        <translation>{registry} 还没有已发布的版本</translation>
    </message>
</context>
<context>
    <name>unsaved</name>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的修改</translation>
    </message>
    <message>
        <source>{what} has unsaved changes.</source>
        <translation>{what}有未保存的修改。</translation>
    </message>
    <message>
        <source>Nothing is stored until you save. Save them now?</source>
        <translation>保存之前不会存储任何内容。现在保存吗？</translation>
    </message>
</context>
<context>
    <name>viewer</name>
    <message>
        <source>Select a session first</source>
        <translation>请先选择一个会话</translation>
    </message>
    <message>
        <source>Nothing added</source>
        <translation>未添加任何内容</translation>
    </message>
</context>
</TS>
