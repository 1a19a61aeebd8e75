import GqlCheck from './check.js';

export const description = 'The GraphQL service: check its settings and model (the default), explain-policy, query, sample, events';

// No options here: commander would hand a parent's options the flags meant for its subcommands.
export default GqlCheck.withProps({options: {raw: false}});
