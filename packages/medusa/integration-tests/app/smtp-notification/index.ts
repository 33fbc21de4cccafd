// A notification provider that really delivers: e-mail over SMTP with nodemailer, the way a
// merchant's own SMTP provider would. Registered by medusa-config.ts only when a test starts an
// SMTP server (PIX_SMTP_PORT); every other suite keeps Medusa's local provider.
import nodemailer, { type Transporter } from "nodemailer";
import {
  AbstractNotificationProviderService,
  ModuleProvider,
  Modules,
} from "@medusajs/framework/utils";
import type {
  ProviderSendNotificationDTO,
  ProviderSendNotificationResultsDTO,
} from "@medusajs/framework/types";

interface SmtpOptions {
  host: string;
  port: number;
  from: string;
}

class SmtpNotificationService extends AbstractNotificationProviderService {
  static override identifier = "smtp";
  private readonly transport: Transporter;
  private readonly from: string;

  constructor(_deps: Record<string, unknown>, options: SmtpOptions) {
    super();
    this.from = options.from;
    this.transport = nodemailer.createTransport({
      host: options.host,
      port: options.port,
      secure: false,
      ignoreTLS: true,
    });
  }

  override async send(
    notification: ProviderSendNotificationDTO,
  ): Promise<ProviderSendNotificationResultsDTO> {
    // A message sent with only a template and its data (the shopper's messages) is rendered as
    // a merchant's provider would render its template: here, the template's name as the subject
    // and the data as the text.
    const content: { subject?: string; text?: string; html?: string } = notification.content
      ?.subject
      ? notification.content
      : { subject: notification.template, text: JSON.stringify(notification.data ?? {}) };
    const info = await this.transport.sendMail({
      from: notification.from ?? this.from,
      to: notification.to,
      subject: content.subject,
      ...(content.text ? { text: content.text } : {}),
      ...(content.html ? { html: content.html } : {}),
    });
    return { id: info.messageId };
  }
}

export default ModuleProvider(Modules.NOTIFICATION, { services: [SmtpNotificationService] });
