import EventsList from './list.js';

export const description =
  'Change events of the GraphQL service: list (the default), init (create the outbox), install-triggers (capture other programs\u2019 writes), dispatch, replay, retry';

// No options here: commander would hand a parent's options the flags meant for its subcommands.
export default EventsList.withProps({options: {raw: false}});
