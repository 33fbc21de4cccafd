import type { Lang } from "./index.js";
import type { NoticeStrings } from "./strings.js";

/**
 * The preparing, superseded, refund, expired, failed and canceled views' words in every language, under their titles
 * (which are in `Strings`, for the announcement). Only the notice chunk imports this: few
 * shoppers ever see those views, so the others never download these words.
 */
export const noticeStrings: Record<Lang, NoticeStrings> = {
  "pt-BR": {
    titles: {
      preparing: "Preparando seu código Pix…",
      preparingBoleto: "Preparando seu boleto…",
      superseded: "Código substituído",
      held: "Pagamento incompleto",
      confirming: "Pagamento recebido",
      refund_due: "Seu pagamento será devolvido",
    },
    closed: {
      expired: "Este código não vale mais. Gere um novo para pagar.",
      failed: "Algo deu errado com este pagamento. Tente de novo.",
      canceled: "Este pagamento foi cancelado.",
    },
    renew: "Gerar novo código",
    readyIn: (when) => `Pronto em ${when}.`,
    about: (n) => `cerca de ${n} s`,
    aboutMinutes: (n) => `cerca de ${n} min`,
    soon: "alguns segundos",
    willShow: {
      pix: "O QR code aparece aqui assim que estiver pronto, sem recarregar a página.",
      boleto: "O boleto aparece aqui assim que estiver pronto, sem recarregar a página.",
    },
    supersededBody: "Este código foi substituído por um novo, porque o carrinho mudou.",
    showCurrent: "Ver o código atual",
    refundBody: (amount) =>
      `Recebemos seu pagamento, mas não conseguimos concluir o pedido: a loja vai devolver ${amount}.`,
    refundReplacedBody: (amount) =>
      `Recebemos ${amount} por este código, que não vale mais para o seu carrinho: a loja vai devolver esse valor.`,
    heldBody: (received, asked) =>
      `${received ? `Recebemos ${received} de ${asked}` : `Recebemos menos que ${asked}`}. A loja vai conferir: o valor recebido pode ser aceito para o pedido ou devolvido a você.`,
    heldNext:
      "Esta página mostra a decisão assim que a loja decidir. Não pague de novo antes disso.",
    confirmingBody: (received) =>
      `Recebemos ${received}, mas a loja ainda não conseguiu criar o seu pedido: um item do carrinho pode ter esgotado.`,
    confirmingNext:
      "A loja está tentando de novo. Se o pedido não puder ser criado, o valor volta para você. Não pague de novo.",
    refundOrderChangedBody: (amount) =>
      `Recebemos ${amount} por este código, que não vale mais para o seu pedido: a loja vai devolver esse valor.`,
    receivedReplaced: (amount) =>
      `Recebemos ${amount} por este código, que já tinha sido substituído. Estamos conferindo: em instantes você vê aqui se esse valor pagou o pedido ou se será devolvido.`,
    orderState: (n, payment) =>
      payment === "paid"
        ? `Seu pedido #${n} está pago.`
        : payment === "canceled"
          ? `Seu pedido #${n} foi cancelado.`
          : `Seu pedido #${n} ainda aguarda pagamento: pague o código atual para concluí-lo.`,
    paidOrder: (n, payment, owes) =>
      payment === "paid"
        ? `Seu pedido #${n} está pago.`
        : payment === "canceled"
          ? `Seu pedido #${n} foi cancelado.`
          : owes
            ? `Seu pedido #${n} ainda tem ${owes} a pagar, porque o valor do pedido aumentou. A loja vai enviar como pagar essa diferença.`
            : `Estamos confirmando seu pedido #${n}…`,
    paidConfirming: "Estamos confirmando seu pedido…",
    paidRefund: (amount) => `A loja vai devolver ${amount} deste pagamento.`,
    payCurrent: "Seu pedido é criado quando o código atual for pago.",
    earlierPayment: (amount, orderPaid) =>
      orderPaid
        ? `Recebemos ${amount} por um código anterior. Seu pedido já está pago; esse valor será devolvido.`
        : `Recebemos ${amount} por um código anterior, que não vale mais para este pedido; esse valor será devolvido. Para concluir o pedido, pague este código.`,
    refundReasons: {
      paid_twice:
        "Este carrinho já tinha sido pago com outro código, então este pagamento ficou duplicado.",
      paid_old_amount:
        "Este código era de uma versão anterior do carrinho, e o valor pago não cobre o total atual.",
      paid_replaced: "Este código já tinha sido trocado por outra forma de pagamento.",
      paid_elsewhere: "Este pedido já tinha sido pago de outra forma.",
      overpaid: "Você pagou mais do que o código pedia.",
      amount_lowered: "O valor do pedido diminuiu depois que o código foi gerado.",
      paid_after_order_canceled: "O pagamento chegou depois que o pedido foi cancelado.",
      out_of_stock: "Um item do carrinho esgotou antes de o pagamento chegar.",
      order_canceled: "O pedido foi cancelado.",
      cart_not_completed: "Não foi possível transformar o carrinho em pedido.",
      collection_canceled:
        "A loja cancelou a cobrança que este código pagava, por exemplo porque o valor do pedido mudou.",
      other: "Se tiver dúvidas, fale com a loja.",
    },
  },
  en: {
    titles: {
      preparing: "Preparing your Pix code…",
      preparingBoleto: "Preparing your boleto…",
      superseded: "Code replaced",
      held: "Incomplete payment",
      confirming: "Payment received",
      refund_due: "Your payment will be refunded",
    },
    closed: {
      expired: "This code is no longer valid. Get a new one to pay.",
      failed: "Something went wrong with this payment. Please try again.",
      canceled: "This payment was canceled.",
    },
    renew: "Generate a new code",
    readyIn: (when) => `Ready in ${when}.`,
    about: (n) => `about ${n} s`,
    aboutMinutes: (n) => `about ${n} min`,
    soon: "a few seconds",
    willShow: {
      pix: "The QR code will show here as soon as it is ready, with no need to reload the page.",
      boleto: "The boleto will show here as soon as it is ready, with no need to reload the page.",
    },
    supersededBody: "This code was replaced by a new one because the cart changed.",
    showCurrent: "Show the current code",
    refundBody: (amount) =>
      `We received your payment, but we could not complete the order: the store will refund ${amount}.`,
    refundReplacedBody: (amount) =>
      `We received ${amount} for this code, which no longer pays for your cart: the store will refund that amount.`,
    heldBody: (received, asked) =>
      `${received ? `We received ${received} of ${asked}` : `We received less than ${asked}`}. The store will check it: the amount received may be accepted for the order or refunded to you.`,
    heldNext:
      "This page shows the store's decision as soon as it is made. Do not pay again before then.",
    confirmingBody: (received) =>
      `We received ${received}, but the store could not create your order yet: an item in your cart may have sold out.`,
    confirmingNext:
      "The store is trying again. If the order cannot be created, the amount comes back to you. Do not pay again.",
    refundOrderChangedBody: (amount) =>
      `We received ${amount} for this code, which no longer pays for your order: the store will refund that amount.`,
    receivedReplaced: (amount) =>
      `We received ${amount} for this code, which had already been replaced. We are checking: in a moment you will see here whether it paid the order or will be refunded.`,
    orderState: (n, payment) =>
      payment === "paid"
        ? `Your order #${n} is paid.`
        : payment === "canceled"
          ? `Your order #${n} was canceled.`
          : `Your order #${n} still awaits payment: pay the current code to complete it.`,
    paidOrder: (n, payment, owes) =>
      payment === "paid"
        ? `Your order #${n} is paid.`
        : payment === "canceled"
          ? `Your order #${n} was canceled.`
          : owes
            ? `Your order #${n} still has ${owes} to pay, because its total went up. The store will send you how to pay the difference.`
            : `Confirming your order #${n}…`,
    paidConfirming: "Confirming your order…",
    paidRefund: (amount) => `The store will refund ${amount} of this payment.`,
    payCurrent: "Your order is placed once the current code is paid.",
    earlierPayment: (amount, orderPaid) =>
      orderPaid
        ? `We received ${amount} for an earlier code. Your order is already paid; that amount will be refunded.`
        : `We received ${amount} for an earlier code, which no longer pays for this order; that amount will be refunded. To complete the order, pay this code.`,
    refundReasons: {
      paid_twice:
        "This cart had already been paid with another code, so this payment was a duplicate.",
      paid_old_amount:
        "This code was for an earlier version of the cart, and the amount paid does not cover its current total.",
      paid_replaced: "This code had already been replaced by another way to pay.",
      paid_elsewhere: "This order had already been paid another way.",
      overpaid: "You paid more than the code asked for.",
      amount_lowered: "The order's amount went down after the code was made.",
      paid_after_order_canceled: "The payment arrived after the order was canceled.",
      out_of_stock: "An item in the cart sold out before the payment arrived.",
      order_canceled: "The order was canceled.",
      cart_not_completed: "The cart could not become an order.",
      collection_canceled:
        "The store canceled the charge this code paid, for example because the order's amount changed.",
      other: "If you have any questions, contact the store.",
    },
  },
  es: {
    titles: {
      preparing: "Preparando tu código Pix…",
      preparingBoleto: "Preparando tu boleto…",
      superseded: "Código reemplazado",
      held: "Pago incompleto",
      confirming: "Pago recibido",
      refund_due: "Tu pago será devuelto",
    },
    closed: {
      expired: "Este código ya no es válido. Genera uno nuevo para pagar.",
      failed: "Algo salió mal con este pago. Inténtalo de nuevo.",
      canceled: "Este pago fue cancelado.",
    },
    renew: "Generar un código nuevo",
    readyIn: (when) => `Listo en ${when}.`,
    about: (n) => `unos ${n} s`,
    aboutMinutes: (n) => `unos ${n} min`,
    soon: "unos segundos",
    willShow: {
      pix: "El código QR aparecerá aquí en cuanto esté listo, sin recargar la página.",
      boleto: "El boleto aparecerá aquí en cuanto esté listo, sin recargar la página.",
    },
    supersededBody: "Este código fue reemplazado por uno nuevo porque el carrito cambió.",
    showCurrent: "Ver el código actual",
    refundBody: (amount) =>
      `Recibimos tu pago, pero no pudimos completar el pedido: la tienda te devolverá ${amount}.`,
    refundReplacedBody: (amount) =>
      `Recibimos ${amount} por este código, que ya no vale para tu carrito: la tienda te devolverá ese monto.`,
    heldBody: (received, asked) =>
      `${received ? `Recibimos ${received} de ${asked}` : `Recibimos menos de ${asked}`}. La tienda lo revisará: el importe recibido puede aceptarse para el pedido o devolverse.`,
    heldNext:
      "Esta página muestra la decisión en cuanto la tienda decida. No pagues de nuevo antes.",
    confirmingBody: (received) =>
      `Recibimos ${received}, pero la tienda aún no pudo crear tu pedido: puede que un producto del carrito se haya agotado.`,
    confirmingNext:
      "La tienda lo está intentando de nuevo. Si no se puede crear el pedido, el importe vuelve a ti. No pagues de nuevo.",
    refundOrderChangedBody: (amount) =>
      `Recibimos ${amount} por este código, que ya no vale para tu pedido: la tienda te devolverá ese monto.`,
    receivedReplaced: (amount) =>
      `Recibimos ${amount} por este código, que ya había sido reemplazado. Lo estamos revisando: en un momento verás aquí si pagó el pedido o si será devuelto.`,
    orderState: (n, payment) =>
      payment === "paid"
        ? `Tu pedido #${n} está pagado.`
        : payment === "canceled"
          ? `Tu pedido #${n} fue cancelado.`
          : `Tu pedido #${n} aún espera el pago: paga el código actual para completarlo.`,
    paidOrder: (n, payment, owes) =>
      payment === "paid"
        ? `Tu pedido #${n} está pagado.`
        : payment === "canceled"
          ? `Tu pedido #${n} fue cancelado.`
          : owes
            ? `Tu pedido #${n} aún tiene ${owes} por pagar, porque su total aumentó. La tienda te enviará cómo pagar la diferencia.`
            : `Confirmando tu pedido #${n}…`,
    paidConfirming: "Confirmando tu pedido…",
    paidRefund: (amount) => `La tienda devolverá ${amount} de este pago.`,
    payCurrent: "Tu pedido se crea cuando se pague el código actual.",
    earlierPayment: (amount, orderPaid) =>
      orderPaid
        ? `Recibimos ${amount} por un código anterior. Tu pedido ya está pagado; ese monto será devuelto.`
        : `Recibimos ${amount} por un código anterior, que ya no vale para este pedido; ese monto será devuelto. Para completar el pedido, paga este código.`,
    refundReasons: {
      paid_twice:
        "Este carrito ya se había pagado con otro código, así que este pago quedó duplicado.",
      paid_old_amount:
        "Este código era de una versión anterior del carrito, y el monto pagado no cubre el total actual.",
      paid_replaced: "Este código ya se había cambiado por otra forma de pago.",
      paid_elsewhere: "Este pedido ya se había pagado de otra forma.",
      overpaid: "Pagaste más de lo que pedía el código.",
      amount_lowered: "El monto del pedido bajó después de que se generó el código.",
      paid_after_order_canceled: "El pago llegó después de que se canceló el pedido.",
      out_of_stock: "Un producto del carrito se agotó antes de que llegara el pago.",
      order_canceled: "El pedido fue cancelado.",
      cart_not_completed: "No se pudo convertir el carrito en un pedido.",
      collection_canceled:
        "La tienda canceló el cobro que pagaba este código, por ejemplo porque cambió el monto del pedido.",
      other: "Si tienes dudas, contacta a la tienda.",
    },
  },
};
