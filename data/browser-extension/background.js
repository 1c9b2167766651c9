// Image Gallery's browser extension: one source for Firefox and Chromium (Manifest V3). It sends what the user
// chose to the Image Gallery app through its native messaging host, and nothing anywhere else.
"use strict";

const api = globalThis.browser ?? globalThis.chrome;

// The native host's name, as its manifests in /usr/lib/mozilla and /etc/chromium name it.
const HOST = "io.github.imagegallery.image_gallery";
// The host reads messages of up to 1 MiB: bytes up to this many go in the image's message, more in chunks.
const INLINE_BYTES = 512 * 1024;
// A chunk's base64 text, a multiple of 4 so each chunk decodes on its own (about 512 KiB of bytes).
const CHUNK_CHARACTERS = 699048;
// The app's download limit: larger bytes are not sent (the address still is).
const MAXIMUM_BYTES = 50000000;
// The host's bound on a message, less room for the JSON around the list.
const MAXIMUM_PAGE_MESSAGE = 1000000;
// Chromium grants activeTab in its browser process before it dispatches the click but tells the page's renderer,
// which checks the script again, by a message of its own, so the first script after a grant may be refused.
const RETRY_DELAYS = [10, 50, 250];

api.runtime.onInstalled.addListener(() => {
  api.contextMenus.create({ id: "send-image", title: api.i18n.getMessage("sendImage"), contexts: ["image"] });
  api.contextMenus.create({ id: "send-page", title: api.i18n.getMessage("sendPage"), contexts: ["page"] });
});

api.contextMenus.onClicked.addListener((info, tab) => {
  if (info.menuItemId === "send-image") {
    report(tab, sendImage(info, tab));
  } else if (info.menuItemId === "send-page") {
    report(tab, sendPage(tab));
  }
});

api.action.onClicked.addListener((tab) => report(tab, sendPage(tab)));

// Runs `func` in the page's top frame (activeTab: allowed by the user's click) and gives its result.
async function inPage(tab, func, args, frameId) {
  const target = { tabId: tab.id };
  if (frameId) target.frameIds = [frameId];
  const run = () => api.scripting.executeScript({ target, func, args });
  const results = await RETRY_DELAYS.reduce(
    (attempt, delay) => attempt.catch(() => new Promise((resolve) => setTimeout(resolve, delay)).then(run)),
    run());
  return results && results[0] ? results[0].result : null;
}

async function sendImage(info, tab) {
  // What the page says of the image; without it (a page that cannot be scripted) the address still goes.
  const found = (await inPage(tab, describeImage, [info.srcUrl], info.frameId)
    .catch((error) => {
      console.error("Image Gallery: could not read the image in the page:", error.message);
      return null;
    })) || {};
  const image = {
    address: info.srcUrl,
    srcset: found.srcset || null,
    altText: found.altText || null,
    title: found.title || null,
    link: info.linkUrl || found.link || null,
  };
  const page = { address: info.pageUrl || tab.url, title: tab.title || null };
  const messages = [];
  let bytes = null;
  if (found.bytes && found.bytes.data) {
    const data = found.bytes.data;
    if (data.length <= (INLINE_BYTES / 3) * 4) {
      bytes = { mimeType: found.bytes.mimeType, data };
    } else {
      const transfer = "t" + Date.now().toString(36);
      for (let start = 0; start < data.length; start += CHUNK_CHARACTERS) {
        messages.push({ kind: "chunk", transfer, data: data.slice(start, start + CHUNK_CHARACTERS) });
      }
      bytes = { mimeType: found.bytes.mimeType, transfer, length: found.bytes.length };
    }
  }
  messages.push({ kind: "image", page, image, bytes });
  return converse(messages);
}

async function sendPage(tab) {
  const images = (await inPage(tab, listImages, [])) || [];
  const message = { kind: "page", page: { address: tab.url, title: tab.title || null }, images };
  // A list too long for one message loses its last images.
  while (images.length > 0 && JSON.stringify(message).length > MAXIMUM_PAGE_MESSAGE) {
    images.splice(Math.floor(images.length * 0.9));
  }
  return converse([message]);
}

// Sends the messages in order over one connection to the host, each after the answer to the one before.
function converse(messages) {
  return new Promise((resolve, reject) => {
    const port = api.runtime.connectNative(HOST);
    let next = 0;
    port.onMessage.addListener((answer) => {
      if (!answer || answer.ok !== true) {
        port.disconnect();
        reject(new Error((answer && answer.error) || "no answer"));
      } else if (next < messages.length) {
        port.postMessage(messages[next++]);
      } else {
        port.disconnect();
        resolve();
      }
    });
    port.onDisconnect.addListener((p) => {
      const error = (p && p.error) || api.runtime.lastError;
      reject(new Error((error && error.message) || "the native host closed"));
    });
    port.postMessage(messages[next++]);
  });
}

// A failure shows on the toolbar button (no other permission needed); a success clears it.
function report(tab, sending) {
  sending.then(
    () => {
      api.action.setBadgeText({ tabId: tab.id, text: "" });
      api.action.setTitle({ tabId: tab.id, title: api.i18n.getMessage("sendPage") });
    },
    (error) => {
      console.error("Image Gallery:", error.message);
      api.action.setBadgeText({ tabId: tab.id, text: "!" });
      api.action.setTitle({ tabId: tab.id, title: api.i18n.getMessage("failed", [error.message]) });
    }
  );
}

// --- Run in the page (each function stands alone: it is serialised into the page) ---

// The <img> showing `address`: its srcset (or its <picture>'s), alt text, title and link, and its bytes when the
// page may read them (same origin, CORS, blob:, data:, a canvas it drew untainted), from the browser's cache.
async function describeImage(address) {
  const MAXIMUM_BYTES = 50000000;
  const image = Array.from(document.images).find((i) => i.currentSrc === address || i.src === address);
  const found = {};
  if (image) {
    const sources = image.parentElement && image.parentElement.tagName === "PICTURE"
      ? Array.from(image.parentElement.querySelectorAll("source")).map((s) => s.srcset).filter(Boolean) : [];
    const srcset = [image.srcset, ...sources].filter(Boolean).join(", ");
    const absolute = srcset.split(",").map((part) => part.trim()).filter(Boolean).map((part) => {
      const [url, ...descriptors] = part.split(/\s+/);
      try { return [new URL(url, document.baseURI).href, ...descriptors].join(" "); } catch (e) { return ""; }
    }).filter(Boolean).join(", ");
    found.srcset = absolute || null;
    found.altText = image.alt || null;
    found.title = image.title || (image.closest("a[title]") || {}).title || null;
    const link = image.closest("a[href]");
    found.link = link ? link.href : null;
  }
  // Base64 through FileReader: typed arrays of the page's objects are out of a Firefox content script's reach.
  const encode = (blob) => new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^[^,]*,/, ""));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
  try {
    const response = await fetch(address, { cache: "force-cache", credentials: "include" });
    const type = (response.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();
    if (response.ok && type.startsWith("image/")) {
      const blob = await response.blob();
      if (blob.size > 0 && blob.size <= MAXIMUM_BYTES) {
        found.bytes = { mimeType: type, data: await encode(blob), length: blob.size };
      }
    }
  } catch (e) {
    // Another origin without CORS: the address is all the app gets, as with a drag.
  }
  if (!found.bytes && image && image.complete && image.naturalWidth > 0) {
    try {
      const canvas = document.createElement("canvas");
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      canvas.getContext("2d").drawImage(image, 0, 0);
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
      if (blob && blob.size <= MAXIMUM_BYTES) {
        found.bytes = { mimeType: "image/png", data: await encode(blob), length: blob.size };
      }
    } catch (e) {
      // A tainted canvas: the page itself may not read these pixels.
    }
  }
  return found;
}

// The page's images as it has loaded them: each <img> by the source it shows (lazy ones by their data-src
// attributes when not loaded yet), og:image and twitter:image, and links to images; in page order, once each.
function listImages() {
  const seen = new Set();
  const images = [];
  const absolute = (url) => { try { return new URL(url, document.baseURI).href; } catch (e) { return null; } };
  const add = (address, fields) => {
    const url = address && absolute(address);
    if (!url || !/^https?:/i.test(url) || seen.has(url)) return;
    seen.add(url);
    images.push(Object.assign({ address: url }, fields));
  };
  const lazy = (image) => {
    for (const name of ["data-src", "data-lazy-src", "data-original", "data-lazy", "data-url"]) {
      const value = image.getAttribute(name);
      if (value) return value;
    }
    const srcset = image.getAttribute("data-srcset");
    return srcset ? srcset.split(",").pop().trim().split(/\s+/)[0] : null;
  };
  for (const meta of document.querySelectorAll('meta[property="og:image"], meta[name="twitter:image"]')) {
    add(meta.content, {});
  }
  for (const image of document.querySelectorAll("img")) {
    const link = image.closest("a[href]");
    const fields = {
      altText: image.alt || null,
      title: image.title || null,
      link: link ? link.href : null,
      width: image.naturalWidth || null,
      height: image.naturalHeight || null,
    };
    const shown = image.currentSrc || image.src;
    const pending = lazy(image);
    add(pending && (!shown || shown.startsWith("data:")) ? pending : shown, fields);
  }
  for (const link of document.querySelectorAll("a[href]")) {
    if (/\.(png|jpe?g|gif|webp|avif|bmp|tiff?)(\?|#|$)/i.test(link.pathname)) add(link.href, { title: link.title || null });
  }
  return images;
}
