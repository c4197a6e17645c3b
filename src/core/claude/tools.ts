/**
 * Claude Code's built-in tool names, for completion of `allowed-tools` / `disallowed-tools` (and agents' `tools`).
 * Source: the tools table of Claude Code's docs/tools-reference.md (mirror ericbuess/claude-code-docs at
 * ec68a5b2d32cf44e913cb4a6ed35bb1cbc2cbdc9, 2026-08-22). Completion only: validation never rejects a tool name for
 * missing here (MCP tools, `Bash(git:*)` patterns and newer tools are all valid).
 */
export const CLAUDE_TOOLS: readonly string[] = [
  // The most used first (completion keeps this order).
  'Read', 'Write', 'Edit', 'Bash', 'Glob', 'Grep', 'WebFetch', 'WebSearch', 'Agent', 'Skill', 'AskUserQuestion', 'NotebookEdit', 'TodoWrite',
  'Artifact', 'CronCreate', 'CronDelete', 'CronList', 'EndConversation', 'EnterPlanMode', 'EnterWorktree', 'ExitPlanMode', 'ExitWorktree',
  'ListAgents', 'ListMcpResourcesTool', 'LSP', 'Monitor', 'PowerShell', 'PushNotification', 'ReadMcpResourceTool', 'RemoteTrigger',
  'ReportFindings', 'ScheduleWakeup', 'SendMessage', 'SendUserFile', 'ShareOnboardingGuide', 'TaskCreate', 'TaskGet', 'TaskList',
  'TaskOutput', 'TaskStop', 'TaskUpdate', 'ToolSearch', 'WaitForMcpServers', 'Workflow',
];
