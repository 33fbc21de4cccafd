// The demo store's e-mail: a Medusa notification provider that renders each message of the
// plugin (render.ts) and delivers it over SMTP with nodemailer, to the mailbox `npm run demo`
// starts (MailDev), whose web inbox shows every message as the shopper would read it.
// Registered by medusa-config.ts when the demo gives it an SMTP port (PIX_DEMO_SMTP_PORT).
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
import { renderMessage, type MessageData } from "./render";

interface SmtpOptions {
  host: string;
  port: number;
  /** The sender, `Loja Pix Checkout <loja@pix-checkout.test>`. */
  from: string;
  /** The store's name, at the top of every message. */
  store: string;
}

class DemoEmailService extends AbstractNotificationProviderService {
  static override identifier = "demo-email";
  private readonly transport: Transporter;

  constructor(
    _deps: Record<string, unknown>,
    private readonly options: SmtpOptions,
  ) {
    super();
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
    const message = renderMessage(
      notification.template,
      (notification.data ?? {}) as MessageData,
      this.options.store,
    );
    const optOut = (notification.data as MessageData | undefined)?.reminder?.opt_out_url;
    const info = await this.transport.sendMail({
      from: this.options.from,
      to: notification.to,
      subject: message.subject,
      html: message.html,
      text: message.text,
      attachments: message.attachments,
      // A mail client's own "unsubscribe" (RFC 8058) posts to the plugin's opt-out link.
      ...(optOut ? { list: { unsubscribe: { url: optOut, comment: "Parar lembretes" } } } : {}),
      ...(optOut ? { headers: { "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } } : {}),
    });
    return { id: info.messageId };
  }
}

export default ModuleProvider(Modules.NOTIFICATION, { services: [DemoEmailService] });
