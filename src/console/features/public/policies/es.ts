/** The five policy pages in Spanish (same sections as en.ts). */
import type { PolicyTranslation } from './en';

export const es: PolicyTranslation = {
  updated: 'Última actualización: 27 de noviembre de 2026',
  nav: 'Políticas',
  'privacy-policy': {
    title: 'Política de privacidad',
    summary: 'Qué guarda esta consola sobre usted, por qué, durante cuánto tiempo y qué puede pedirnos.',
    sections: [
      {
        heading: 'Responsable',
        paragraphs: [
          'Esta consola la gestiona la organización que opera este servidor («nosotros»). Las preguntas sobre sus datos se envían por la página de contacto; respondemos en 30 días.',
        ],
      },
      {
        heading: 'Qué guardamos',
        paragraphs: [
          'Su cuenta: correo electrónico, nombre de usuario, biografía e imagen opcionales, un hash argon2id con sal de su contraseña (nunca la contraseña), sus roles y, si activa el inicio de sesión en dos pasos, lo que este necesita (el secreto del autenticador y sus códigos de recuperación, guardados de forma protegida).',
          'Sus dispositivos y su configuración: nombres, identificadores, grupos, posiciones en el mapa, límites de transmisiones, diseños de cámaras, direcciones de cámaras IP (sus contraseñas se cifran y solo se entregan al dispositivo que alcanza la cámara), modelos y aplicaciones que sube o crea.',
          'Licencias y pagos: sus licencias, pedidos (plan, importe, fecha) y, si decide guardarlos, direcciones de facturación y tarjetas. De una tarjeta solo guardamos la marca, los cuatro últimos dígitos y la caducidad; el número y el código de seguridad nunca se guardan. Con Stripe, la tarjeta se introduce en la página de Stripe y nunca llega a este servidor.',
          'Los mensajes enviados con el formulario de contacto: nombre, correo, asunto y texto.',
        ],
      },
      {
        heading: 'Qué no guardamos',
        paragraphs: [
          'El vídeo en directo viaja de igual a igual, de su dispositivo a su navegador. Solo pasa por nuestros servidores cuando hace falta un relé (TURN), cifrado de extremo a extremo, y no lo grabamos. Sus grabaciones quedan en su navegador o en su propio dispositivo.',
        ],
      },
      {
        heading: 'Por qué',
        paragraphs: [
          'Para prestar el servicio que contrató (contrato), mantenerlo seguro (interés legítimo: límites de intentos de inicio de sesión, registro de acciones de administradores), facturar lo que compra y conservar los justificantes (obligación legal), y responder a sus mensajes.',
        ],
      },
      {
        heading: 'Durante cuánto tiempo',
        paragraphs: [
          'Los datos de la cuenta se guardan hasta que se elimina la cuenta. Los pedidos se guardan el tiempo que exige la ley fiscal (normalmente 10 años). Los mensajes de contacto se guardan mientras los necesitamos para responderle; si lo pide, borramos los suyos. Las sesiones caducan tras 30 días sin uso.',
        ],
      },
      {
        heading: 'Quién más los ve',
        paragraphs: [
          'Nadie, salvo los encargados necesarios para el servicio: el proveedor de pagos cuando paga (Stripe, si está configurado), el proveedor que entrega nuestros correos y Google reCAPTCHA en el formulario de registro cuando está activado. No vendemos datos ni los usamos para publicidad.',
        ],
      },
      {
        heading: 'Sus derechos',
        paragraphs: [
          'Puede ver y corregir sus datos en su perfil, y pedirnos por la página de contacto una copia, su rectificación o supresión, u oponerse a su uso. También puede reclamar ante su autoridad de protección de datos.',
        ],
      },
    ],
  },
  'cookie-policy': {
    title: 'Política de cookies',
    summary: 'Esta consola no usa cookies publicitarias ni de seguimiento.',
    sections: [
      {
        heading: 'Qué guarda la consola en su navegador',
        paragraphs: [
          'Sus tokens de sesión y su idioma se guardan en el almacenamiento local del navegador, para que siga conectado y vea la consola en su idioma. Se borran al cerrar sesión (el idioma se queda).',
          'Los archivos que está subiendo se guardan en el IndexedDB del navegador hasta que termina la subida, para poder reanudarla tras recargar.',
        ],
      },
      {
        heading: 'Cookies que ponemos',
        paragraphs: [
          'Una sola cookie, solo cuando abre una aplicación web de uno de sus dispositivos (por ejemplo JupyterLab): demuestra que la página es suya, se limita a la dirección de esa aplicación, no la pueden leer los scripts (HttpOnly, SameSite=Strict) y caduca a las 8 horas.',
        ],
      },
      {
        heading: 'Cookies de terceros',
        paragraphs: [
          'La página de pago de Stripe (cuando los pagos van por Stripe) y Google reCAPTCHA (cuando está activado en el formulario de registro) ponen sus propias cookies en sus propios dominios, según sus propias políticas.',
        ],
      },
      {
        heading: 'Su elección',
        paragraphs: [
          'Como solo usamos lo que el servicio necesita para funcionar, no hay nada que consentir. Puede borrar el almacenamiento local y las cookies en su navegador cuando quiera; se cerrará su sesión.',
        ],
      },
    ],
  },
  'terms-conditions': {
    title: 'Términos y condiciones',
    summary: 'El acuerdo entre usted y nosotros cuando usa esta consola.',
    sections: [
      {
        heading: 'El servicio',
        paragraphs: [
          'La consola le permite gestionar sus dispositivos de IA en el borde: verlos, conectarse a ellos, ver sus cámaras, ejecutar contenedores y modelos e instalar el software del dispositivo. Solo funciona con dispositivos suyos o que está autorizado a operar.',
        ],
      },
      {
        heading: 'Su cuenta',
        paragraphs: [
          'Mantenga en secreto su contraseña y sus tokens de dispositivo; usted responde de su uso. Avísenos enseguida si cree que alguien usa su cuenta indebidamente. Debe tener al menos 16 años para tener una cuenta.',
        ],
      },
      {
        heading: 'Planes, licencias y pago',
        paragraphs: [
          'El plan gratuito está incluido en cada dispositivo. Las licencias de pago son para un dispositivo o para su cuenta, durante el periodo indicado en la compra, y empiezan con el pago (o cuando termina su licencia actual del mismo plan). Los precios se muestran antes de pagar. Las licencias no se renuevan automáticamente.',
          'Cuando termina una licencia, el dispositivo vuelve al plan gratuito: no se borra nada, pero deja de aplicarse lo que añadía la licencia. Pida un reembolso por la página de contacto; los consumidores de la UE pueden desistir de una compra en 14 días.',
        ],
      },
      {
        heading: 'Uso aceptable',
        paragraphs: [
          'Debe cumplir las normas de uso y la ley, en especial sobre videovigilancia y datos personales. Podemos suspender una cuenta que ponga en peligro a otros o al servicio, y le diremos por qué.',
        ],
      },
      {
        heading: 'Disponibilidad y responsabilidad',
        paragraphs: [
          'Gestionamos el servicio con cuidado, pero no podemos prometer que nunca se interrumpa. Respondemos de los daños causados con dolo o negligencia grave; en lo demás, nuestra responsabilidad se limita a lo que nos pagó en los últimos 12 meses.',
        ],
      },
      {
        heading: 'Cambios y fin',
        paragraphs: [
          'Le avisamos de los cambios de estos términos 30 días antes de que se apliquen; puede cerrar su cuenta antes. Puede pedirnos en cualquier momento que cerremos su cuenta por la página de contacto.',
        ],
      },
    ],
  },
  'user-guidelines': {
    title: 'Normas de uso',
    summary: 'Cómo usar la consola de forma segura y justa.',
    sections: [
      {
        heading: 'Cámaras y personas',
        paragraphs: [
          'Conecte solo cámaras que pueda usar. Avise de dónde hay cámaras, no grabe lugares privados y cumpla las normas de su país sobre videovigilancia y protección de datos. El reconocimiento facial o de matrículas suele requerir una base legal y un aviso: compruébelo antes de activarlo.',
        ],
      },
      {
        heading: 'Dispositivos y acceso',
        paragraphs: [
          'Instale el software del dispositivo solo en máquinas que administra. Dé acceso creando cuentas para las personas, no compartiendo su contraseña. Sustituya enseguida un token de dispositivo que pueda haberse filtrado; el antiguo deja de funcionar.',
        ],
      },
      {
        heading: 'Modelos y contenedores',
        paragraphs: [
          'Suba solo modelos e imágenes que tenga derecho a usar y respete sus licencias. No ejecute software que ataque otros sistemas, mine criptomonedas con recursos compartidos u oculte lo que hace.',
        ],
      },
      {
        heading: 'Uso justo',
        paragraphs: [
          'Las cuotas de transmisiones y los límites de frecuencia mantienen el servicio rápido para todos: no los eluda. El acceso automatizado se hace con claves de API con los permisos que necesita.',
        ],
      },
      {
        heading: 'Informar de problemas',
        paragraphs: [
          'Informe de fallos de seguridad y abusos por la página de contacto. Leemos cada aviso y no actuamos contra la investigación de seguridad de buena fe.',
        ],
      },
    ],
  },
  'legal-guidelines': {
    title: 'Aviso legal',
    summary: 'El marco legal del servicio y cómo contactarnos.',
    sections: [
      {
        heading: 'Titular',
        paragraphs: [
          'El titular de este servidor facilita su nombre, dirección y datos registrales a petición por la página de contacto; una instalación propia la gestiona la organización que la instaló.',
        ],
      },
      {
        heading: 'Ley aplicable',
        paragraphs: [
          'Estas páginas se rigen por la ley del país del titular; los consumidores conservan la protección de la ley de su propio país. El Reglamento General de Protección de Datos de la UE se aplica a los datos personales que tratamos.',
        ],
      },
      {
        heading: 'Avisos y solicitudes',
        paragraphs: [
          'Los avisos de contenido ilícito, las reclamaciones de propiedad intelectual y las solicitudes de autoridades se envían por la página de contacto con «Legal» en el asunto. Confirmamos la recepción y actuamos sin demora indebida.',
        ],
      },
      {
        heading: 'Conflictos',
        paragraphs: [
          'Contáctenos primero; la mayoría de los problemas se resuelven rápido. Los consumidores de la UE también pueden acudir a los organismos nacionales de resolución de conflictos de consumo.',
        ],
      },
      {
        heading: 'Código abierto',
        paragraphs: [
          'La consola está hecha con software de código abierto; cada componente conserva su propia licencia, indicada junto al código fuente.',
        ],
      },
    ],
  },
};
