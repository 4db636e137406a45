vcl 4.1;
# The landing page behind Varnish 7 (Debian's varnish package), as /etc/varnish/default.vcl.
#
# - /api, the hashed assets, images, locale files and the other public files are kept here for
#   every visitor, whatever cookies they send. The pictures the server makes (/images/photos/) are
#   kept like the hashed assets, one copy each (the server sends them as they are in every coding);
#   a name not made yet on that replica is a 404 with no-store, which is not kept.
# - The pages (/ and /impressum) are kept per variant: the selectedLanguage cookie's value when
#   it is a well-formed language code as the server reads it, otherwise "first visit". Which
#   codes are offered is the server's to say: it gives no CDN-Cache-Control for one it does not
#   offer, so that answer is not kept and made-up codes keep no copies. The server is
#   sent that cookie alone (or none), never the visitor's own, and no query string; a request
#   with lng in its query passes. A page is kept for the seconds the server's CDN-Cache-Control
#   gives (a few, counted from its Date, never past its next change) and never served stale.
# - /event.ics and everything else are passed to the server with their cookies.
# - One copy per content coding: Varnish asks the server for gzip and unzips for the clients that
#   do not take it (open-source Varnish does not handle brotli: browsers get gzip through it).
# - A stale /api answer is served while one request revalidates it (the server's
#   stale-while-revalidate, never without it: /api/live has none) and, while the server fails or
#   is down, for the server's stale-if-error window. Requests for one key wait for one fetch
#   (Varnish's waiting list), expired copies included: /api/live reaches the server once per
#   lifetime however many pages poll it.
# - No answer with Set-Cookie is stored; every visitor gets the id of their own request.
# - Open-source Varnish does not speak TLS: put a TLS terminator (hitch, haproxy, nginx, the
#   load balancer) in front, and count this cache as one more hop in the server's TRUST_PROXY.
#
# Log each request with how it was served (the format is deploy/varnish/varnishncsa.format):
#   varnishncsa -f /etc/varnish/varnishncsa.format
# test/edge/ runs this file as it is (origin address and port aside) in front of the server.

import std;

# The server. Change host and port to where it listens.
backend landing {
    .host = "127.0.0.1";
    .port = "3000";
    .connect_timeout = 2s;
    .first_byte_timeout = 15s;
    .between_bytes_timeout = 10s;
    # Readiness: 503 while a server makes its hero's pictures at start, and from the moment it
    # starts shutting down, so kept copies stand in.
    .probe = {
        .url = "/readyz";
        .interval = 1s;
        .timeout = 1s;
        .window = 3;
        .threshold = 2;
        .initial = 2;
    }
}

sub vcl_recv {
    # An id of its own for every request, unless the proxy in front gave a valid one; the server
    # logs it, and vcl_deliver gives it back to this request only.
    if (req.http.X-Request-Id !~ "^[A-Za-z0-9_-]{1,128}$") {
        set req.http.X-Request-Id = "varnish-" + req.xid;
    }
    call vcl_req_host;
    # Methods other than GET and HEAD are passed (the server answers them 405).
    call vcl_req_method;

    # ---- operations: probes pass through uncached, metrics stay private ----
    if (req.url ~ "(?i)^/metrics/?(\?|$)") {
        return (synth(404));
    }
    if (req.url ~ "(?i)^/(healthz|readyz)/?(\?|$)") {
        return (pass);
    }

    # ---- /api: kept for every visitor, stale while revalidating and while the server fails ----
    if (req.url ~ "^/api/") {
        set req.http.X-Landing-Kept = "api";
        call landing_kept;
    }

    # ---- files: hashed assets, images, locale files and the other files of public/ ----
    # A file added at the top of public/ needs its name here.
    if (req.url ~ "^/(assets|images|locales)/" || req.url ~ "^/(robots\.txt|sitemap\.xml|favicon\.svg)(\?|$)") {
        set req.http.X-Landing-Kept = "files";
        call landing_kept;
    }

    # ---- pages: kept per language variant for the seconds the server allows ----
    if (req.url ~ "^/(impressum)?(\?|$)") {
        # ?lng= (a name holding lng in any case, or an escape the server would decode) chooses
        # the language and sets the cookie: per visitor.
        if (req.url ~ "(?i)[?&][^=&]*(lng|%)") {
            return (pass);
        }
        set req.http.X-Landing-Kept = "page";
        call landing_page_variant;
        set req.url = regsub(req.url, "\?.*$", "");
        return (hash);
    }

    # ---- /event.ics and everything else: per visitor, passed as they are ----
    return (pass);
}

# The page variant, read as the server reads the cookie: the first pair named exactly
# selectedLanguage (split at ';' only, name and value trimmed) decides; a value that is not a
# language code (two or three lowercase letters, then -subtags) is a first visit. The server
# then gets that cookie alone, so it renders exactly the variant the copy is kept under.
sub landing_page_variant {
    std.collect(req.http.Cookie, "; ");
    if (req.http.Cookie ~ "^((?!\s*selectedLanguage\s*=)[^;]*;)*\s*selectedLanguage\s*=\s*([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\s*(;|$)") {
        set req.http.X-Landing-Variant = regsub(req.http.Cookie,
            "^((?!\s*selectedLanguage\s*=)[^;]*;)*\s*selectedLanguage\s*=\s*([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\s*(;.*)?$", "\2");
        set req.http.Cookie = "selectedLanguage=" + req.http.X-Landing-Variant;
    } else {
        set req.http.X-Landing-Variant = "first-visit";
        unset req.http.Cookie;
    }
}

sub vcl_hash {
    if (req.http.X-Landing-Variant) {
        hash_data(req.http.X-Landing-Variant);
    }
}

# What every kept path shares: no cookies (nothing there depends on them), no query string
# (nothing there reads one), and stale copies only as the server allows them.
sub landing_kept {
    # One copy per coding: Varnish turns Accept-Encoding into gzip or nothing by itself
    # (http_gzip_support), asks the server for gzip, and unzips for clients that do not take it.
    unset req.http.Cookie;
    set req.url = regsub(req.url, "\?.*$", "");
    if (req.http.X-Landing-Fresh-Only) {
        # Past its stale-while-revalidate window a copy is not served to a healthy server's visitors.
        set req.grace = 0s;
    }
    return (hash);
}

sub vcl_hit {
    # obj.grace spans the server's stale-if-error window too; beyond its stale-while-revalidate
    # window a stale copy is for a failing server only, so a healthy one is asked first.
    if (obj.ttl <= 0s && !req.http.X-Landing-Stale-Ok && std.healthy(req.backend_hint) &&
        obj.ttl + std.duration(obj.http.X-Landing-Swr + "s", 0s) <= 0s) {
        set req.http.X-Landing-Fresh-Only = "1";
        return (restart);
    }
}

sub vcl_backend_fetch {
    # Flags for this cache only: the server never sees them.
    unset bereq.http.X-Landing-Kept;
    unset bereq.http.X-Landing-Fresh-Only;
    unset bereq.http.X-Landing-Stale-Ok;
    unset bereq.http.X-Landing-Variant;
}

sub vcl_backend_response {
    if (bereq.uncacheable) {
        return (deliver);
    }
    if (bereq.url ~ "^/(impressum)?$") {
        call landing_page_lifetime;
        return (deliver);
    }
    # A failing server never replaces a kept copy; the request is answered from it (vcl_synth).
    if (beresp.status >= 500) {
        return (abandon);
    }
    # Never stores an answer with Set-Cookie, or one the server marks no-store, private or
    # no-cache (the /api fallback is no-store), or Vary: *.
    call vcl_beresp_cookie;
    call vcl_beresp_control;
    call vcl_beresp_vary;

    # Varnish reads stale-while-revalidate into beresp.grace, and gives default_grace (10 s) to an
    # answer without one: that would serve /api/live past its lifetime. Keep what the server
    # allows, then extend the grace to the stale-if-error window, which only a failing server may
    # use (see vcl_hit).
    if (beresp.http.Cache-Control !~ "stale-while-revalidate=[0-9]+") {
        set beresp.grace = 0s;
    }
    set beresp.http.X-Landing-Swr = beresp.grace;
    if (beresp.http.Cache-Control ~ "stale-if-error=[0-9]+" &&
        std.duration(regsub(beresp.http.Cache-Control, "^.*stale-if-error=([0-9]+).*$", "\1s"), 0s) > beresp.grace) {
        set beresp.grace = std.duration(regsub(beresp.http.Cache-Control, "^.*stale-if-error=([0-9]+).*$", "\1s"), 0s);
    }
    # Past its grace a copy is kept a while longer to be revalidated with its ETag: the server
    # then answers 304 without the body.
    set beresp.keep = 1h;
    # A stale /api answer (max-age=0) is kept for its stale windows, not refused. Varnish never
    # looks up an object stored with a TTL of 0, so it gets a millisecond.
    if (beresp.ttl <= 0s) {
        if (beresp.grace <= 0s) {
            call vcl_beresp_hitmiss;
        }
        set beresp.ttl = 0.001s;
    }
    return (deliver);
}

# A page is kept only for the server's CDN-Cache-Control max-age, and only a 200 without
# Set-Cookie. The lifetime counts from the server's Date (the second the page's clock was read
# in, however long its render and its way here took, as RFC 9111 counts an answer's age), so a
# copy ends on a whole second where the server's clock agrees with this one's: the event's
# changes fall on whole seconds, and no copy is served after the change it was rendered before,
# however slow the answer. No grace: a copy is never served past its lifetime. Kept a little
# longer only to be revalidated with its ETag.
sub landing_page_lifetime {
    if (beresp.status != 200 || beresp.http.Set-Cookie ||
        beresp.http.CDN-Cache-Control !~ "(^|,)\s*max-age=[1-9][0-9]*\s*(,|$)") {
        set beresp.ttl = 1s;
        set beresp.grace = 0s;
        set beresp.uncacheable = true;
    } else {
        set beresp.ttl = std.duration(
            regsub(beresp.http.CDN-Cache-Control, "^(.*,)?\s*max-age=([0-9]+).*$", "\2s"), 0s);
        # A Date ahead of this clock, or further back than any answer can take to arrive (the
        # backend's first_byte_timeout and the second the Date is rounded down to), is a server
        # clock that is off: its copies are kept for the whole max-age, not for none.
        if (std.time(beresp.http.Date, now + 1d) <= now &&
            std.time(beresp.http.Date, now + 1d) > now - 16s) {
            set beresp.ttl = std.time(beresp.http.Date, now) + beresp.ttl - now;
        }
        set beresp.grace = 0s;
        set beresp.keep = 10s;
    }
}

sub vcl_backend_error {
    # The server is down or did not answer: keep the old copy (a background fetch), or let the
    # request be answered from it (vcl_synth).
    if (!bereq.uncacheable) {
        return (abandon);
    }
}

sub vcl_deliver {
    # Every visitor gets the id of their own request, never the one that filled the cache.
    set resp.http.X-Request-Id = req.http.X-Request-Id;
    unset resp.http.X-Landing-Swr;
    # The edge's own lifetime of a page is not for browsers or caches further on.
    unset resp.http.CDN-Cache-Control;
    unset resp.http.X-Accel-Expires;

    # This cache's Cache-Status entry (RFC 9211), after the server's own.
    if (!req.http.X-Landing-Kept) {
        set req.http.X-Landing-Status = "varnish; fwd=bypass";
    } else if (obj.hits > 0 && obj.ttl < 0s) {
        # A stale copy (grace): its ttl is negative, rounded down.
        set req.http.X-Landing-Status = "varnish; hit; ttl=" + std.integer(duration=obj.ttl - 1s, fallback=-1);
    } else if (obj.hits > 0) {
        set req.http.X-Landing-Status = "varnish; hit; ttl=" + std.integer(duration=obj.ttl, fallback=0);
    } else if (obj.uncacheable) {
        set req.http.X-Landing-Status = "varnish; fwd=miss";
    } else {
        set req.http.X-Landing-Status = "varnish; fwd=miss; stored; ttl=" + std.integer(duration=obj.ttl, fallback=0);
    }
    if (resp.http.Cache-Status) {
        set resp.http.Cache-Status = resp.http.Cache-Status + ", " + req.http.X-Landing-Status;
    } else {
        set resp.http.Cache-Status = req.http.X-Landing-Status;
    }
    unset req.http.X-Landing-Status;
}

sub vcl_synth {
    # The server failed a kept path: answer from the stale copy if there is one.
    if (resp.status == 503 && req.http.X-Landing-Kept && req.http.X-Landing-Kept != "page" &&
        !req.http.X-Landing-Stale-Ok) {
        set req.http.X-Landing-Stale-Ok = "1";
        unset req.http.X-Landing-Fresh-Only;
        return (restart);
    }
    set resp.http.X-Request-Id = req.http.X-Request-Id;
    set resp.http.Cache-Control = "no-store";
}
