import { PixCheckoutBase } from "../core/pix-checkout-base";
import { parseOptions, type PixCheckoutOptions } from "../../../internal/platform/options";

/** Pix: a QR code / copy-and-paste charge. Provider id `pp_pix_<id>`. */
export class PixCheckoutPixService extends PixCheckoutBase {
  static override identifier = "pix";
  protected readonly method = "pix" as const;

  /** Fails Medusa's startup with a message naming each wrong option. */
  static override validateOptions(options: Record<string, unknown>): void {
    parseOptions(options, ["pix"]);
  }

  constructor(cradle: Record<string, unknown>, options: PixCheckoutOptions) {
    super(cradle, options);
  }
}
