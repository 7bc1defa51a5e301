import { Type, type Static } from '@sinclair/typebox';
import type { Email as EmailRow } from '../../../services/users/emails';

export const Email = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
});

export function presentEmail(email: EmailRow): Static<typeof Email> {
  return { id: email.id, email: email.email };
}
