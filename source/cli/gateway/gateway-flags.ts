import {z} from 'zod';
import {option} from 'pastel';

/** Flags every gateway command shares: which gateway, and JSON for scripts. */
export const gatewayFlags = {
  url: z
    .string()
    .optional()
    .describe(option({description: 'A running gateway, e.g. http://127.0.0.1:7701; else the one `workbench serve gateway` announced', valueDescription: 'url'})),
  json: z.boolean().default(false).describe('Print JSON'),
};

/** A channel's write token: `channels post` and `channels delete` need it. */
export const tokenFlag = {
  token: z
    .string()
    .optional()
    .describe(option({description: 'The channel’s write token (printed once by `channels create`)', valueDescription: 'token'})),
};

export type GatewayFlags = {url?: string; json: boolean};
