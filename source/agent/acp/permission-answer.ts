import type {PermissionOption, RequestPermissionResponse} from '@agentclientprotocol/sdk';

/**
 * The answer to `session/request_permission`: one of the agent's own options. Allowed picks
 * "allow once" (workbench keeps its own session-long `always`, so the agent is not told to stop
 * asking); refused picks "reject once". An agent that offers no option of the kind needed is
 * told `cancelled`, which every agent must understand.
 */
export function permissionAnswer(options: PermissionOption[], allowed: boolean): RequestPermissionResponse {
  const preference = allowed ? (['allow_once', 'allow_always'] as const) : (['reject_once', 'reject_always'] as const);
  for (const kind of preference) {
    const option = options.find((candidate) => candidate.kind === kind);
    if (option) return {outcome: {outcome: 'selected', optionId: option.optionId}};
  }
  return {outcome: {outcome: 'cancelled'}};
}

export const cancelledAnswer: RequestPermissionResponse = {outcome: {outcome: 'cancelled'}};
