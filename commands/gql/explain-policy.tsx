import {z} from 'zod';
import {option} from 'pastel';
import {textCommand} from '../../source/cli/command-output.js';
import {rawFlag, settingsFlag} from '../../source/cli/gql/gql-flags.js';

export const description =
  'Per table and operation, the row rules (tenant filter, auto-filters, soft delete), hidden and read-only columns and role gates that apply to a user, with the SQL each adds';

export const options = z.object({
  ...settingsFlag,
  claims: z
    .string()
    .optional()
    .describe(option({description: 'The user’s token claims as JSON, e.g. \'{"tenant_id": 1, "roles": ["gql-admin"]}\' (default: anonymous)', valueDescription: 'json'})),
  table: z
    .string()
    .optional()
    .describe(option({description: 'Only this table (GraphQL name, database name or schema.table)', valueDescription: 'name'})),
  ...rawFlag,
});

type Props = {options: z.infer<typeof options>};

export default textCommand<Props>(
  async ({options: flags}) => {
    const {explainPolicy, userFromClaimsJson} = await import('../../source/gql/policy/explain-policy.js');
    const {readModel} = await import('../../source/gql/check/read-model.js');
    const {formatPolicyExplanation} = await import('../../source/cli/gql/format.js');
    const {json, text} = await import('../../source/cli/command-result.js');
    // Claims first: a typo there is reported before the database is opened.
    const user = userFromClaimsJson(flags.claims);
    const {model} = await readModel({file: flags.settings});
    const explanation = explainPolicy(model, user, flags.table);
    return flags.raw ? json(explanation) : text(formatPolicyExplanation(explanation));
  },
  {json: ({options: flags}) => flags.raw},
);
