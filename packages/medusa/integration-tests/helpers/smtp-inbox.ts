import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";

/** A local SMTP server that keeps every message it accepts, parsed. */
export interface SmtpInbox {
  port: number;
  mails: ParsedMail[];
  /** While true, every recipient is refused with a passing failure (450), as a full mailbox or a down relay would. */
  refuse: boolean;
  close(): Promise<void>;
}

/** Starts an SMTP server on 127.0.0.1 at a free port (no TLS, no auth: loopback only). */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const inbox = { mails: [] as ParsedMail[], refuse: false } as SmtpInbox;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!inbox.refuse) return callback();
      const refused = Object.assign(new Error("mailbox unavailable, try again later"), {
        responseCode: 450,
      });
      callback(refused);
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          inbox.mails.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  inbox.port = (server.server.address() as AddressInfo).port;
  inbox.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return inbox;
}
