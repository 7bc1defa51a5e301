import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent: headers and MIME body. */
  raw: string;
  subject: string;
  /** The raw message with quoted-printable soft breaks and escapes undone: what a reader sees, parts and all. */
  text: string;
}

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` library) standing in for the instance's mail
 * server: it takes every mail, any credentials, and keeps what it received. `stop` and `start`
 * on the same port stand for an SMTP server that goes away and comes back.
 */
export class MailServer {
  readonly received: ReceivedMail[] = [];
  private server: SMTPServer | undefined;
  port = 0;

  static async start(): Promise<MailServer> {
    const mail = new MailServer();
    await mail.listen();
    return mail;
  }

  get url(): string {
    return `smtp://forge:secret@127.0.0.1:${this.port}`;
  }

  /** Listens again, on the port of the first start. */
  async listen(): Promise<void> {
    const server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      authOptional: true,
      // Plain authentication over a connection without TLS: this is loopback, in a test.
      allowInsecureAuth: true,
      onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw,
            subject: /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1].replace(/\r\n[ \t]/g, ' ') ?? '',
            text: raw.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16))),
          });
          callback();
        });
      },
      logger: false,
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Closes the server: connections are refused until `listen` again. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The mails sent to an address. */
  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to.includes(address));
  }
}
