import type { Strings } from "./strings.js";

/** Spanish. */
export const es: Strings = {
  loading: "Cargando el pago…",
  payWithPix: "Paga con Pix",
  steps: [
    "Abre la app de tu banco y elige Pix.",
    "Escanea el código QR o usa Pix Copia y Pega.",
    "Confirma. Esta página se actualiza sola.",
  ],
  saved: (amount) => `Ahorras ${amount} pagando con Pix`,
  qrLabel: (amount) => `Código QR de Pix para pagar ${amount}`,
  pixCode: "Pix Copia y Pega",
  copyCode: "Copiar código",
  copyPixCode: "Copiar código Pix",
  afterCopy: "Abre la app de tu banco, elige Pix Copia y Pega y pega el código.",
  showQr: "¿Pagas con otro dispositivo? Mostrar código QR",
  hideQr: "Ocultar código QR",
  qrUnavailable: "No se pudo mostrar el código QR. Usa Pix Copia y Pega.",
  expiresSoon: (m) =>
    m === 1
      ? "Queda menos de 1 minuto para que el código venza."
      : `Quedan menos de ${m} minutos para que el código venza.`,
  renewing: "Generando un código nuevo…",
  copied: "¡Copiado!",
  copyManual: "Código seleccionado. Cópialo manualmente.",
  share: "Compartir",
  expiresIn: "Vence en",
  alreadyPaid: "Ya pagué",
  checking: "Verificando…",
  pending: "Esperando el pago",
  paid: "Pago confirmado",
  paidBody: "¡Gracias! Recibimos tu pago.",
  expired: "Código vencido",
  failed: "Pago no completado",
  canceled: "Pago cancelado",
  errorTitle: "No se pudo cargar el pago",
  errorBody: "Revisa tu conexión e inténtalo de nuevo.",
  notFound: "Pago no encontrado.",
  retry: "Reintentar",
  reconnecting: "Conexión inestable con la tienda; reintentando…",
};
