import { Type, type Static } from '@sinclair/typebox';
import type { CommandsOnly } from '../../../services/slash-commands/slash-commands';

const Ids = Type.Array(Type.Integer());
const NullableId = Type.Union([Type.Integer(), Type.Null()]);

/**
 * The answer to a note of slash commands only (202, no note made), as later GitLab's notes API
 * answered it (`Entities::NoteCommands`): the changes under the update's parameter names, and one
 * sentence per change. 8.12 answered such a note `404 Note {:commands_only=>["Your commands have
 * been executed!"]}`, a "not found" for a request that succeeded; Forge does not copy that.
 */
export const NoteCommands = Type.Object({
  commands_changes: Type.Object({
    state_event: Type.Optional(Type.String()),
    title: Type.Optional(Type.String()),
    assignee_id: Type.Optional(NullableId),
    milestone_id: Type.Optional(NullableId),
    label_ids: Type.Optional(Ids),
    add_label_ids: Type.Optional(Ids),
    remove_label_ids: Type.Optional(Ids),
    todo_event: Type.Optional(Type.String()),
    subscription_event: Type.Optional(Type.String()),
    due_date: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    wip_event: Type.Optional(Type.String()),
  }),
  summary: Type.Array(Type.String()),
});

export function presentNoteCommands({ commands }: CommandsOnly): Static<typeof NoteCommands> {
  return { commands_changes: commands.changes, summary: commands.summary };
}
