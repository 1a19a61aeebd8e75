import type {GqlCheckReport} from '../../gql/check/check-settings.js';
import type {ExplainedOperation, PolicyExplanation} from '../../gql/policy/explain-policy.js';

/** `gql check` for people: a summary line, the connection's warnings, then every problem with its rule. */
export function formatCheckReport(report: GqlCheckReport): string {
  const lines = [
    `settings: ${report.source}`,
    `${report.provider}: ${report.connection}`,
    `${report.rules} rule${report.rules === 1 ? '' : 's'}, ${report.tables} table${report.tables === 1 ? '' : 's'} served (${report.hiddenTables} hidden), ${report.links} links, ${report.procedures} procedures`,
  ];
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  if (report.problems.length === 0) {
    lines.push('no problems');
    return lines.join('\n');
  }
  lines.push('', `${report.problems.length} problem${report.problems.length === 1 ? '' : 's'}:`);
  for (const problem of report.problems) {
    lines.push(`- ${problem.message}`);
    if (problem.rule !== undefined) lines.push(`  rule ${problem.ruleIndex}: ${problem.rule}`);
  }
  return lines.join('\n');
}

/** `gql explain-policy` for people: per table and operation, the rules that apply and the SQL each adds. */
export function formatPolicyExplanation(explanation: PolicyExplanation): string {
  const {user} = explanation;
  const lines = [user.anonymous ? 'user: anonymous (no claims)' : `user: claims ${JSON.stringify(user.claims)}; roles: ${user.roles.join(', ') || 'none'}`];
  lines.push(`tenant claim: ${explanation.tenantContextKey}`);
  for (const gate of explanation.roleGates) {
    lines.push(`${gate.gate}: ${gate.enabled ? `needs role ${gate.role} — ${gate.allowed ? 'allowed' : 'not allowed'}` : 'disabled'}`);
  }
  for (const table of explanation.tables) {
    lines.push('', `${table.table} (${table.key})${table.hidden ? ' — hidden' : ''}`);
    if (table.hiddenColumns.length > 0) lines.push(`  hidden columns: ${table.hiddenColumns.join(', ')}`);
    if (table.readOnlyColumns.length > 0) lines.push(`  read-only columns: ${table.readOnlyColumns.join(', ')}`);
    for (const filter of table.bypassedAutoFilters) lines.push(`  auto-filter ${filter.column}:${filter.claim} bypassed by the user's role`);
    for (const operation of table.operations) lines.push(...formatOperation(operation));
  }
  return lines.join('\n');
}

function formatOperation(operation: ExplainedOperation): string[] {
  const head = `  ${operation.operation.padEnd(6)} `;
  if (operation.denied) return [`${head}DENIED: ${operation.denied}`];
  const lines: string[] = [];
  // An insert has no rows to filter: its rules show as the values it forces.
  const predicates = operation.operation === 'insert' ? [] : operation.predicates;
  const forced = Object.entries(operation.forcedValues);
  if (predicates.length === 0 && (operation.operation !== 'insert' || forced.length === 0))
    lines.push(`${head}${operation.operation === 'insert' ? 'any row' : 'all rows'} (no row rule applies)`);
  for (const [index, predicate] of predicates.entries()) {
    const values = predicate.bindings.length > 0 ? `   with ? = ${predicate.bindings.map((value) => JSON.stringify(value)).join(', ')}` : '';
    lines.push(`${index === 0 ? head : ' '.repeat(head.length)}where ${predicate.sql}${values}   (${predicate.rule})`);
  }
  if (forced.length > 0 && operation.operation !== 'read' && operation.operation !== 'delete') {
    lines.push(
      `${lines.length === 0 ? head : ' '.repeat(head.length)}writes ${forced.map(([column, value]) => `${column} = ${JSON.stringify(value)}`).join(', ')} whatever the request says`,
    );
  }
  for (const note of operation.notes) lines.push(`${' '.repeat(head.length)}${note}`);
  return lines;
}
