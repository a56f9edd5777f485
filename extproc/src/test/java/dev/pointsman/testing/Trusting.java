package dev.pointsman.testing;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** TLS contexts for test clients that trust exactly the certificates they are given. */
public final class Trusting {
  private Trusting() {}

  /** A client context trusting the PEM certificate(s) {@code pem} and nothing else. */
  public static SSLContext pem(String pem) throws GeneralSecurityException {
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (var c :
          CertificateFactory.getInstance("X.509")
              .generateCertificates(
                  new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))) {
        store.setCertificateEntry("trusted-" + i++, c);
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(store);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      return ctx;
    } catch (java.io.IOException e) {
      throw new GeneralSecurityException("unreadable certificate: " + e.getMessage(), e);
    }
  }
}
