// Linked into the dist binary (scripts/dist) in place of GnuTLS.
//
// Debian's libmicrohttpd is built with HTTPS support, so its static archive calls GnuTLS, and
// GnuTLS cannot be linked statically on Debian: it needs p11-kit, of which Debian ships no
// static library. TabStage never asks libmicrohttpd for TLS (no MHD_USE_TLS: TLS ends in the
// proxy in front, see docs/hosting.md), so the dist binary carries no TLS at all: these are
// the GnuTLS functions libmicrohttpd refers to. Only the library set-up and tear-down that
// libmicrohttpd runs at every start and exit do anything (nothing, successfully); the others
// are reached only through a TLS daemon or connection, and stop the process with a message
// rather than pretend. A libmicrohttpd that refers to another GnuTLS function fails to link.
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

int gnutls_global_init(void) { return 0; }
void gnutls_global_deinit(void) {}

// A variable in GnuTLS (gnutls_alloc_function gnutls_malloc), read when TLS credentials are set.
void *(*gnutls_malloc)(size_t) = malloc;

__attribute__((noreturn)) static void no_tls(const char *function)
{
    fprintf(stderr, "tabstage: %s: this build has no TLS (put a TLS proxy in front, see docs/hosting.md)\n",
            function);
    abort();
}

#define NO_TLS(name) \
    void name(void); \
    void name(void) { no_tls(#name); }

NO_TLS(gnutls_alpn_set_protocols)
NO_TLS(gnutls_bye)
NO_TLS(gnutls_certificate_allocate_credentials)
NO_TLS(gnutls_certificate_free_credentials)
NO_TLS(gnutls_certificate_server_set_request)
NO_TLS(gnutls_certificate_set_dh_params)
NO_TLS(gnutls_certificate_set_retrieve_function2)
NO_TLS(gnutls_certificate_set_retrieve_function3)
NO_TLS(gnutls_certificate_set_x509_key_mem)
NO_TLS(gnutls_certificate_set_x509_key_mem2)
NO_TLS(gnutls_certificate_set_x509_trust_mem)
NO_TLS(gnutls_cipher_get)
NO_TLS(gnutls_credentials_set)
NO_TLS(gnutls_deinit)
NO_TLS(gnutls_dh_params_deinit)
NO_TLS(gnutls_dh_params_import_pkcs3)
NO_TLS(gnutls_dh_params_init)
NO_TLS(gnutls_handshake)
NO_TLS(gnutls_init)
NO_TLS(gnutls_priority_deinit)
NO_TLS(gnutls_priority_init)
NO_TLS(gnutls_priority_set)
NO_TLS(gnutls_protocol_get_version)
NO_TLS(gnutls_psk_allocate_server_credentials)
NO_TLS(gnutls_psk_free_server_credentials)
NO_TLS(gnutls_psk_set_server_credentials_function)
NO_TLS(gnutls_record_check_pending)
NO_TLS(gnutls_record_get_direction)
NO_TLS(gnutls_record_recv)
NO_TLS(gnutls_record_send)
NO_TLS(gnutls_session_get_ptr)
NO_TLS(gnutls_session_set_ptr)
NO_TLS(gnutls_strerror)
NO_TLS(gnutls_transport_set_int2)
