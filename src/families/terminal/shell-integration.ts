/**
 * Shell integration for the terminals OpenSpace opens, by environment alone (no file to install):
 * bash marks its prompt and every command's start and end with OSC 133 sequences (as VS Code, Theia
 * and iTerm2 terminals do), which src/families/terminal/shell-marks.ts reads back from the output. Browser-safe.
 *
 *   ESC ] 133;A BEL   the prompt begins          ESC ] 133;C;t=<µs> BEL          the command's output begins (PS0)
 *   ESC ] 133;B BEL   the prompt ends            ESC ] 133;D;<exit>;t=<µs> BEL   the command ended with <exit>
 *
 * `t=` is bash's clock (EPOCHREALTIME in microseconds; empty before bash 5), so a command's start,
 * end and duration do not depend on how soon the IDE reads the output.
 *
 * How it gets in: PROMPT_COMMAND (from the environment) evaluates OPENSPACE_SHELL_INTEGRATION on
 * the first prompt, after the person's bashrc ran. The script removes both variables from the
 * environment (child shells inherit neither), keeps whatever PROMPT_COMMAND the bashrc set (string
 * or array, appended or prepended to ours) and brackets it: a first function prints D with the exit
 * status and hands the status on unchanged, a last one wraps PS1 in A … B again whenever the
 * person's own prompt command replaced it. PS0 (bash 4.4 and later) prints C. The script announces
 * itself once with ESC ] 633;P;OpenSpaceShellIntegration=1 BEL (a VS Code property mark): a prompt
 * command of the bashrc may replace PS1 on that first prompt before it is wrapped. Other shells ignore
 * PROMPT_COMMAND: their terminals have no integration, and terminal.run says so.
 */

/** The variable that carries the script into the shell. */
export const SHELL_INTEGRATION_VARIABLE = 'OPENSPACE_SHELL_INTEGRATION';

/** What PROMPT_COMMAND holds until the script has run; the script finds it by this text. */
const BOOTSTRAP = 'eval "$OPENSPACE_SHELL_INTEGRATION"';

/** The bash script, evaluated once, on the first prompt (`%{` stands for `${`, which a template literal would take). */
export const BASH_SHELL_INTEGRATION = String.raw`unset OPENSPACE_SHELL_INTEGRATION
if [[ -n "%{OPENSPACE_AGENT_SHELL-}" ]]; then set +o history +H; unset HISTFILE OPENSPACE_AGENT_SHELL; fi
if [[ -z "%{__openspace_si-}" ]]; then
__openspace_si=1
__openspace_keep() { return; }
__openspace_precmd() {
  local s=$?
  builtin printf '\e]133;D;%s;t=%s\a' "$s" "%{EPOCHREALTIME/[.,]/}"
  return $s
}
__openspace_prompt() {
  local s=$?
  if [[ "$PS1" != "%{__openspace_ps1-}" ]]; then
    __openspace_ps1='\[\e]133;A\a\]'"$PS1"'\[\e]133;B\a\]'
    PS1=$__openspace_ps1
  fi
  [[ "%{PS0-}" == *'\e]133;C;t='* ]] || PS0="%{PS0-}"'\e]133;C;t=%{EPOCHREALTIME/[.,]/}\a'
  return $s
}
__openspace_boot='eval "$OPENSPACE_SHELL_INTEGRATION"'
if [[ "%{PROMPT_COMMAND@a}" == *a* ]]; then
  PROMPT_COMMAND=(__openspace_precmd "%{PROMPT_COMMAND[@]//"$__openspace_boot"/__openspace_keep}" __openspace_prompt)
else
  PROMPT_COMMAND="__openspace_precmd"$'\n'"%{PROMPT_COMMAND//"$__openspace_boot"/__openspace_keep}"$'\n'"__openspace_prompt"
  export -n PROMPT_COMMAND
fi
unset __openspace_boot
__openspace_prompt
builtin printf '\e]633;P;OpenSpaceShellIntegration=1\a'
fi
`.replaceAll('%{', '${');

/** Set in an agent's shell: the script turns off history, so no key recalls a line the person allowed once. */
export const AGENT_SHELL_VARIABLE = 'OPENSPACE_AGENT_SHELL';

/** The environment that gives a bash terminal shell integration (harmless to other shells). */
export function shellIntegrationEnv(options: { agent?: boolean } = {}): Record<string, string> {
  return {
    [SHELL_INTEGRATION_VARIABLE]: BASH_SHELL_INTEGRATION,
    PROMPT_COMMAND: BOOTSTRAP,
    ...(options.agent && { [AGENT_SHELL_VARIABLE]: '1' }),
  };
}
