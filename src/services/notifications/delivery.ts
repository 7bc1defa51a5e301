import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config';
import type { OutgoingMail } from '../../jobs/kinds';

/**
 * Hands mails to the SMTP server of `SMTP_URL`. A connection per mail (no pool): mails are few, and
 * a server that went away and came back is simply reached again. A refusal or a network error
 * fails the job, which is tried again later.
 */
export class Mailer {
  private transport: Transporter | undefined;

  constructor(private readonly config: Pick<Config, 'smtpUrl' | 'emailFrom' | 'hookTimeoutMs'>) {}

  async send(mail: OutgoingMail, signal: AbortSignal): Promise<void> {
    if (!this.config.smtpUrl) return;
    this.transport ??= nodemailer.createTransport(this.config.smtpUrl, {});
    const threading = mail.threadId ? { inReplyTo: mail.threadId, references: [mail.threadId] } : {};
    const sending = this.transport.sendMail({
      from: this.config.emailFrom,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      ...threading,
    });
    await abortable(sending, signal);
  }

  close(): void {
    this.transport?.close();
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Whether the SMTP server answers and accepts the credentials (`forge admin check`). */
export async function verifySmtp(smtpUrl: string): Promise<void> {
  const transport = nodemailer.createTransport(smtpUrl, {});
  try {
    await transport.verify();
  } finally {
    transport.close();
  }
}
