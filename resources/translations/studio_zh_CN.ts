<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Actions</name>
    <message>
        <source>Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo the last change to the shown draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redo the change undone last</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a new tool to the draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Duplicate tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the selected tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>De&amp;lete tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Find tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter the tool list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Publish…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publish the saved draft as a new immutable version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open version…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the selected published version read-only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Back to draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Return to the editable draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Dark theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch between the dark and the light theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close the studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New &amp;registry…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create an empty registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import tools from a provider file or a registry folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import from &amp;MCP server…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pull the tools a live MCP server lists (a command over stdio, or a URL)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Check against MCP server…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare what the registry&apos;s live MCP server lists with a pinned version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the shown draft or version to a file or folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Registry se&amp;ttings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title, description, verb vocabulary and description template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete re&amp;gistry…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete a registry that has no published versions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Run lint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lint the whole draft again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Next problem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go to the next lint problem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Previous problem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go to the previous lint problem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every keyboard shortcut of the studio</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lint for the {profile} profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit the registry&apos;s tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Playground</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try the tools with a real model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the prompt to the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the run in progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Release</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gray release: channels, simulator, guard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse, replay and re-validate sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Diff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What changes between two versions</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CanaryDialog</name>
    <message>
        <source>Set canary</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChangeTableModel</name>
    <message>
        <source>Rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before → after</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>before: {before}
after: {after}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Columns</name>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enum values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Aliases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enum aliases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Injected from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Severity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(registry)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Date</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Similar to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shared words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tells them apart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Semver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Published</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Author</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hash</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Meaning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retryable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments (JSON object)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DiffLabels</name>
    <message>
        <source>breaking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>behavioural</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compatible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>metadata</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>removed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>renamed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>major</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>minor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>patch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <source>A: the older side</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B: the newer side</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Swap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Markdown…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the report for a pull request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export JSON…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick a registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changes &amp;&amp; description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Schema</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Renames</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lint &amp;&amp; tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No registry open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot list versions: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diff failed: {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggested bump: {level} — {reasons}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{a_label} → {b_label} · {changed} of {count} tools differ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Renames ({count})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Registry-level changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;{tool}&lt;/b&gt; — &lt;span style=&quot;color:{colour}&quot;&gt;{status}{worst}&lt;/span&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No description block changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(not in A)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(not in B)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export diff as Markdown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export diff as JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not exported: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lint was skipped for this diff.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lint ({profile}): {before} → {after} findings — {added} added, {fixed} fixed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(registry)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} findings of removed tools went with them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens ({method}): {before} → {after} ({delta:+d})</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DoctorDialog</name>
    <message>
        <source>Repair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Convert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trim</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI Responses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anthropic messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note: {note}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kept {kept} of {total} tokens (estimated); {dropped} message(s) before messages[{cut_at}] dropped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>even the last safe tail needs {kept} tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{messages} messages · {calls} calls · {problems} pairing problem(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{action} — {session}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep system messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optional: a summary standing for what is cut</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Convert to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as new session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Store the result as a new session linked to this one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the result in the chosen provider&apos;s wire shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No change needed: the history is already valid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved as session {id}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not exported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write {path}: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported to {name}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ExamplesTableWidget</name>
    <message>
        <source>example {row}: line {line}, column {column}: {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>example {row}: arguments must be a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>example {row}:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Choose where to write the export.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} is a file; the &apos;dir&apos; format writes a folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} is a folder; the {format!r} format writes one file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export {registry}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft (the working copy as shown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version {number} (published)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dir (registry-as-code folder)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Destination:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exactly the published snapshot of version {source}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your unsaved changes are included: the working copy is exported as shown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The saved draft (there are no unsaved changes).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an empty folder, or an earlier export of this registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a .json file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file exists and will be overwritten.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export into a folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export to a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <source>Choose a file or a folder to import.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{path}: no such file or folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} is a folder; only the &apos;dir&apos; format (or auto) reads folders.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The &apos;dir&apos; format reads a registry folder, not a file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A registry named {name!r} already exists: tick &apos;Replace its draft&apos; or enter another name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import tool definitions from a provider file (OpenAI, Anthropic, Gemini, MCP…), an OpenAPI document (you pick its operations next), a studio document, or a registry folder (registry-as-code).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a .json file or a registry folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>auto (detect from the content)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace its draft if the registry exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Like --replace-draft: the imported tools become the draft; published versions are kept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Source:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Registry name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from the file (else {stem!r})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import tools from a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON or YAML (*.json *.yaml *.yml);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import a registry folder</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ImportLogDialog</name>
    <message>
        <source>Import session log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A .json, .jsonl or .traj log, or a folder of them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>auto detects each conversation&apos;s format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the tools as a registry draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tool definitions that came with the log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>registry name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a file and Import.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors and warnings appear here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading {name}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read the file: {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error: {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning: {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled; kept 1 session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled; kept {count} sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported 1 session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported {count} sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{head} · {errors} error(s) · {warnings} warning(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the log came with no tool definitions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no registry name for the tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tools not imported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tools not imported: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} tool(s) in the draft of {name}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>JobDialog</name>
    <message>
        <source>Cancelling…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>JobPanel</name>
    <message>
        <source>Progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problems</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>JsonTab</name>
    <message>
        <source>The form changed; your JSON text has errors and was kept.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>JsonTabWidget</name>
    <message>
        <source>line {line}, column {column}: {message}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LintController</name>
    <message>
        <source>A suppression needs a reason; nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The settings of {name} were changed elsewhere ({error}). Nothing was overwritten; reopen the registry to see what is stored, then try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The quick fix does not apply any more: {error}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LintOperations</name>
    <message>
        <source>Problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Similar tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lint findings of the shown draft (F8: next problem)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lint failed: {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>published versions are not linted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>linting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quick fix not applied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applied: {label}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suppressed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disabled {rule_id}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lint settings not saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{done}; stored in the registry settings</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LintPrompts</name>
    <message>
        <source>Suppress finding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why is this {rule_id} finding on {tool} acceptable? The reason is stored with the registry and shown in exports.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A suppression needs a reason.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{id} ({category}, {severity} by default)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Lint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Playground</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Release</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read this mode&apos;s data again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Versions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The registry being edited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter tools (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lint: ✕ errors · ! warnings · ✓ clean
Risk: R read · W write · D destructive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back to draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This registry contains Chinese (or other CJK) text, but no installed font can show it: it appears as boxes. Install a CJK font (on Debian or Ubuntu: sudo apt install {package}) and restart the studio.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An example that is flawed on purpose: tools imported as-is from a legacy backend. The Problems panel shows what lint finds; travel-reimbursement shows the same ideas done well.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The exemplary example: structured descriptions, aliases and risk tiers done well. Copy what you like.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>McpCheckDialog</name>
    <message>
        <source>Check {registry} against its MCP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare what the live MCP server lists now with a pinned version of {registry}: every changed tool is named with its description word diff, and the live descriptions are checked for poisoning. Write secrets as {{env:NAME}}: they are read from the environment when connecting and never stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pinned:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The registry has no published version to check against; publish one first.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>McpImportDialog</name>
    <message>
        <source>Enter a URL.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the command that starts the server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A registry named {name!r} already exists: tick &apos;Replace its draft&apos; or enter another name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import from MCP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pull the tools a live MCP server lists: start it with a command (stdio) or reach it by URL (streamable HTTP). Write secrets as {env:NAME}: they are read from the environment when connecting and never stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Command (stdio)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;URL (streamable HTTP)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server&apos;s name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace its draft if the registry exists</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Registry name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Timeout:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>https://host/mcp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Headers:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Authorization: Bearer {env:MCP_TOKEN}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Co&amp;mmand:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>uvx mcp-server-time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Environment:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API_KEY={env:MY_API_KEY}
PATH_TO_PASS_THROUGH</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>McpJobs</name>
    <message>
        <source>Nothing imported: {error}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s standard error ended with:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading {side} of {registry}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing checked: {error}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing checked: {error}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModeBar</name>
    <message>
        <source>Modes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>NewRegistryDialog</name>
    <message>
        <source>Enter a name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The name has {count} characters; at most {maximum} are allowed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>space</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not allowed in a name: {shown}. Use lowercase a-z, digits 0-9, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The name must start with a lowercase letter or a digit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A registry named {name!r} already exists.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create an empty registry. You can import or add tools afterwards.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. travel-reimbursement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shown in the registry list, e.g. Travel reimbursement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the tools of this registry are for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Description:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>NotesDialog</name>
    <message>
        <source>Lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Guessed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing was guessed or lost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check these notes: {parts}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OpenApiPickerDialog</name>
    <message>
        <source>(no tag)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import operations from {source}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>search method, path, operationId, summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select &amp;all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select &amp;none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an operation to preview its contract</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} of {total} operations selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot import this operation: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This operation gives no tool.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP target:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OverviewTab</name>
    <message>
        <source>When to use it, when not, and which sibling tool to use instead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State required before calling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What a successful call returns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preconditions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Returns</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OverviewTabWidget</name>
    <message>
        <source>Identity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>verb_noun, e.g. query_invoices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Display title (not shown to the model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description blocks (rendered into the text the model sees)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This tool&apos;s text is in the free-text description below, and the model reads it as is. Filling in the blocks (Summary first) replaces it with a structured description.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One line: what the tool does</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Examples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free-text description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used only when no description block above is filled in (typically text kept from an import).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This text is used: no description block is filled in.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This text is not used now: description blocks are filled in.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A name must be 1–64 letters, digits, &apos;_&apos; or &apos;-&apos; (e.g. query_invoices).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ParameterTreeModel</name>
    <message>
        <source>The schema of each item of the array</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ParametersTabWidget</name>
    <message>
        <source>Add parameter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add child</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a property to the selected object (or array of objects)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click a cell to edit. Lists are comma-separated; enum aliases as 出租车=taxi, 的士=taxi.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PlaygroundSidebar</name>
    <message>
        <source>Run the draft as the editor shows it (unsaved edits included) or a version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep this registry; unpinned, the Playground follows the editor&apos;s registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to run yet: pick a registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>version {number}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>profile {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no model profile yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>executors: {counts}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (pinned)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs {what}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>draft · 1 unsaved edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>draft · {count} unsaved edits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Versions not loaded: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Registry not loaded: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{variable} is not set: export it before starting the studio, or store a key with Edit… (profile {profile})</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PlaygroundView</name>
    <message>
        <source>Nothing has run yet. Type a prompt below and press Run (Ctrl+Return): the model&apos;s answer, every tool call it makes and each result appear here. The header above says what runs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No session yet</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ProblemsPanel</name>
    <message>
        <source>{n} error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} warnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show {severity}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider the tools are linted for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{severity} ({n})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Go to field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply quick fix: {label}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No fix</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Suppress with reason…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Disable {rule_id} for this registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show &amp;rationale</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ProfileDialog</name>
    <message>
        <source>Edit model profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add model profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. OPENAI_API_KEY (empty: system keyring)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional: saved in the system keyring</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key &amp;variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API &amp;key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max &amp;tokens</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PublishBaseline</name>
    <message>
        <source>{registry} has never been published: every tool is new.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compared with the version the stable channel serves (v{number}).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No stable channel version is set: compared with the latest version (v{number}).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PublishDialog</name>
    <message>
        <source>Publish {registry}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publish the saved draft of &lt;b&gt;{registry}&lt;/b&gt; ({tool_count} tools) as a new immutable version. Agents and reviewers will see exactly this snapshot.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What changed and why (shown in the version list)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional, e.g. 1.2.0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Release notes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Semantic version:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publish</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{counts}&lt;br&gt;Suggested bump: &lt;b&gt;{level}&lt;/b&gt; — {reasons}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Acknowledge each breaking change ({count})&lt;/b&gt; — callers built for {baseline} may fail after this release:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acknowledge all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggested from {previous} and a {level} bump</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no earlier semver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acknowledge the {missing} remaining breaking change(s) first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not published: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(registry)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing changed since the baseline.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RegistryJobs</name>
    <message>
        <source>{source} was not imported; nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… and {more} more</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RegistryListModel</name>
    <message>
        <source>never published</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name}
{count} tools in the draft · {latest}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RegistryOperations</name>
    <message>
        <source>Import cancelled; nothing was changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Registry not created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading and checking {name}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting the pull from {source}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking {registry} against {target}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DRIFT: {count} tool(s) differ from {pinned}: {tools}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No drift: the live server lists what {pinned} pinned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · {count} security finding(s) on the live descriptions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A registry named {name!r} already exists. Tick &apos;Replace its draft&apos; to replace its draft (published versions are kept), or enter another registry name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing imported: the unsaved changes of {name} are kept. Save them first, or import under another registry name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved the settings of {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted {name}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RegistryPrompts</name>
    <message>
        <source> Its unsaved changes are lost too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete {registry} and its draft of {tool_count} tools? This cannot be undone.{lost}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace the draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{registry} has unsaved changes. The import replaces its draft, and your unsaved changes are lost. Import anyway?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RegistrySettingsDialog</name>
    <message>
        <source>{verb!r} is not a verb: use one word of letters and digits, starting with a letter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter at least one verb, e.g. get, list, create.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Registry settings — {registry}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed first words of tool names (verb_noun), comma-separated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Description:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Verbs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset to default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Placeholders: {names}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description &amp;template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview: {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a tool in the main window to preview the template.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Showing the default template until the problem is fixed.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReleaseChartsWidget</name>
    <message>
        <source>No outcomes recorded yet. The charts show each version&apos;s success rate and p95 latency once clients report calls: serve the registry (Serve above) and send outcomes with the token it prints.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReleaseImpact</name>
    <message>
        <source>no version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No subject changes version (checked on {total:,} simulated subjects).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count:,} move from {old} to {new}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Of {total:,} simulated subjects, {moves}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>v{version} at {share} %</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReleaseView</name>
    <message>
        <source>Publish the draft…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No registry is open. Open or import one in the Editor (Ctrl+1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{registry} has no published version yet. Channels serve published versions: publish the draft, then set a canary here and watch the guard.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stable follows the newest version (v{old}); setting a canary pins it to v{new}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Promote</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why promote v{version} to stable?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stable to its previous version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the canary to 0 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Roll back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why roll back {what}?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RenamesPanel</name>
    <message>
        <source>Old name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Similarity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No rename candidates: no removed tool resembles an added one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A tool missing from B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A tool new in B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confirm rename</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Treat the removed tool as renamed to the added one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pair:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Confirm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RevalidateView</name>
    <message>
        <source>1 recorded call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{total} recorded calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{calls} against {registry} {version}: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The registry to re-validate against</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The draft or a published version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-validate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick a registry and a version, then Re-validate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-validation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Against</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no registry to re-validate against.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read that version: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-validating against {name} {version}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-validation failed: {message}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RevalidationStatus</name>
    <message>
        <source>passes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mapped-differently</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fails</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool-gone</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RevalidationTableModel</name>
    <message>
        <source>recorded: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prepared now: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note: {note}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ScoreWidget</name>
    <message>
        <source>Purpose</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Limitations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Examples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Completeness</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transparency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conciseness</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Registry TDQS: — (no tools)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Registry TDQS: {score:.1f} · {tier} (0.6 × mean {mean:.1f} + 0.4 × min {minimum:.1f}, {tools})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Glama&apos;s open Tool Definition Quality Score (spec 1.2), computed deterministically from the component scores: {weights}. Tiers A ≥ 3.5, B ≥ 3.0 (passing), C ≥ 2.0, D ≥ 1.0; the registry is 0.6 × mean + 0.4 × min of its tools.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>estimate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{tools} · {approx}{total} tokens of definitions (≈ {average} per tool)
Per task: {approx}{total} tokens × {rounds} rounds = {approx}{per_task} ({method})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≈ {count} tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} tokens ({method})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean scores of the registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TDQS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool: none selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool: not linted yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No tool selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not linted yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool: {name} · {total}/30 · {tokens}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description score {total}/30 (mean {average:.1f}) · {tokens}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{text}
Tokens: the name, the rendered description and the parameters the model sees, plus {PER_TOOL_OVERHEAD} for the provider&apos;s wrapper (what the cost rules count; the preview counts its whole JSON).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Registry TDQS: not linted yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Registry: {registry} ({profile})</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SessionPrompts</name>
    <message>
        <source>OpenAI chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anthropic messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import a session log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session logs (*.json *.jsonl *.traj);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export session as {format}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace the draft?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{registry} already exists. Replace its draft with the tools from the log? Published versions are kept.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SessionSource</name>
    <message>
        <source>import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>playground</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mcp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>proxy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>repair</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>convert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>trim</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SessionViewer</name>
    <message>
        <source>Select a session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay as model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Play the recorded assistant turns as the model against the current runtime, registry version and executors; optionally fork at the current step with a live model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repair…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The smallest change that makes this history valid for a provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Convert…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This conversation in another provider&apos;s wire shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trim…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Drop the oldest messages to fit a token budget, at safe points only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending tool calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No problem at this step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problems at this step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answered here: {calls}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SessionsTableModel</name>
    <message>
        <source>(untitled)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} pairing problem(s) and suspicious pattern(s)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SessionsView</name>
    <message>
        <source>Filter by title, id, model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All sources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All registries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import log…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import sessions from an OpenAI, Anthropic or Gemini log, a SWE-agent trajectory, a Claude Code session file or a Codex rollout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export session… (OpenAI, Anthropic or JSONL; secrets redacted)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{format}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-validation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{total} sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{shown} of 1 session shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{shown} of {total} sessions shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to replay against</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create a registry first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay of {title}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay not started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, live {profile} from step {step}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replaying against {registry} {version}{fork}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay {status}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not exported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write {path}: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no registry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} messages</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Severity</name>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Info</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SimilarToolsView</name>
    <message>
        <source>both descriptions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only {a}: add a line to {b}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>neither: add “use X instead” to both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>similar descriptions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>confusable names</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>related</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{a} ↔ {b}: similarity {score:.2f} ({kind}); shared words: {shared}. Line that tells them apart: {apart}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pairs of tools a model may confuse. Each description should say when to use the other tool instead.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SpecTableWidget</name>
    <message>
        <source>permission</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add {noun}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove {noun}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>example</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ToolDiffListModel</name>
    <message>
        <source>no classified change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{tool}: {status}, worst {worst}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ToolList</name>
    <message>
        <source>read: only reads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>write: changes data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>destructive: deletes or cannot be undone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lint: not run yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lint: no findings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} warnings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lint: {counts}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>risk tier {letter} — {label}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>VersionsPanel</name>
    <message>
        <source>No registry open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publish…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Publish the saved draft as a new immutable version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open read-only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Look at the selected version without changing it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diff the selected version against the draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{count} published version(s) of {registry}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{registry} has no published version yet</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>unsaved</name>
    <message>
        <source>Unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{what} has unsaved changes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing is stored until you save. Save them now?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
