import type {CredentialReport} from '../types.js';

/**
 * The message when no credential resolved: what was tried, in order, and how to fix it, then the
 * sign-ins of other applications that were skipped and keys for providers this command cannot use.
 * Several lines: a face prints it whole (stderr, exit 1), not as a one-line error.
 */
export function describeNoCredential(report: CredentialReport): string {
  const lines = ['No credential for the model endpoint. Tried, in order:'];
  report.tried.forEach((line, index) => lines.push(`  ${index + 1}. ${line}`));
  lines.push(
    'To fix, one of:',
    '  - set MESSAGES_API_KEY (or ANTHROPIC_API_KEY) in the environment or in the workspace .env.local',
    '  - pass --api-key <key>',
    '  - with --base-url naming a gateway: set GATEWAY_API_KEY (or GATEWAY_KEY)',
    '  - sign in with the browser: workbench connect (the built-in gateway provider needs no setup)',
  );
  if (report.skipped.length > 0) {
    lines.push("Skipped (other applications' sign-in tokens are never read):");
    for (const item of report.skipped) lines.push(`  - ${item.provider} in ${item.where}: ${item.reason}`);
  }
  if (report.unusable.length > 0) {
    lines.push('Found keys for providers this command cannot use; run their agent through workbench acp instead:');
    for (const item of report.unusable) lines.push(`  - ${item.provider}: ${item.where}`);
  }
  return `${lines.join('\n')}\n`;
}
