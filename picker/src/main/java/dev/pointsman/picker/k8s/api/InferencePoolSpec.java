package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * @param selector which pods are members (labels, same namespace)
 * @param targetPorts the ports of each member that are endpoints (1..8, distinct)
 * @param endpointPickerRef the endpoint picker serving the pool (read by gateways, not by us;
 *     optional upstream since v1.6)
 * @param appProtocol what the model servers speak on the target ports (upstream v1.4+): {@code
 *     http} (HTTP/1.1, also when absent) or {@code kubernetes.io/h2c} (HTTP/2 over cleartext)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferencePoolSpec(
    PoolSelector selector,
    List<Port> targetPorts,
    EndpointPickerRef endpointPickerRef,
    String appProtocol) {}
