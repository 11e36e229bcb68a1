import { eventsConfigure, eventsQuery } from './tools.js';
import { defineCommand } from '../../commands/command.js';
import { ideEvents } from '../../commands/event-log.js';

export const eventsQueryCommand = defineCommand(eventsQuery, async (ide, args, context) =>
  ideEvents(ide).log.query(args, context?.sessionId),
);

export const eventsConfigureCommand = defineCommand(eventsConfigure, async (ide, args, context) => ({
  ignored: ideEvents(ide).log.configure(context?.sessionId, args),
}));

export default [eventsQueryCommand, eventsConfigureCommand];
