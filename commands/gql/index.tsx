import GqlCheck from './check.js';

export const description = 'The GraphQL service’s settings and model: check (the default), explain-policy';

// No options here: commander would hand a parent's options the flags meant for its subcommands.
export default GqlCheck.withProps({options: {raw: false}});
