/**
 * knex's logger writes to stdout with console.log (an unreachable server prints "Acquire
 * connection error" and a stack), which would break `--json` output and the MCP protocol. Its
 * errors reach us as rejections anyway; with WORKBENCH_DEBUG set its notes go to stderr. Every
 * knex workbench opens gets this logger.
 */
const knexNote = (message: unknown): void => {
  if (process.env.WORKBENCH_DEBUG) process.stderr.write(`knex: ${String(message).split('\n')[0]}\n`);
};

export const knexLog = {warn: knexNote, error: knexNote, deprecate: knexNote, debug: knexNote};
